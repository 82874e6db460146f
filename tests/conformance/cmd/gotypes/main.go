// Command gotypes writes the Go types kube-apiserver decodes the built-in kinds into, as data for lint:
// every kind client-go's scheme registers with an ObjectMeta, and every type its JSON reaches, with the
// JSON names and Go type names that encoding/json's errors print. lint checks --workloads objects against
// it the way the API server's decoder would (validation/schema/go_types.cpp); nothing of Kubernetes'
// code is copied, only the shape of its types.
//
//	gotypes > validation/schema/kubernetes-types.json
//	gotypes -check validation/schema/kubernetes-types.json   (exit 1 when the file is not current)
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubescheme "k8s.io/client-go/kubernetes/scheme"

	clusterv1alpha1 "github.com/karmada-io/karmada/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/karmada-io/karmada/pkg/apis/work/v1alpha2"
)

// snapshotTypes are Karmada's types of the objects lint reads as a snapshot (--clusters, --bindings): the
// clientsets Karmada's components list them with decode the whole object, so lint checks every field's
// type, not only those it reads. By type name (go_type_check), not as kinds: they are no built-in kinds.
var snapshotTypes = []reflect.Type{
	reflect.TypeFor[clusterv1alpha1.Cluster](),
	reflect.TypeFor[workv1alpha2.ResourceBinding](),
	reflect.TypeFor[workv1alpha2.ClusterResourceBinding](),
}

// special are the types with their own UnmarshalJSON in the API types, by what lint checks of them.
var special = map[reflect.Type]string{
	reflect.TypeFor[resource.Quantity]():    "quantity",
	reflect.TypeFor[intstr.IntOrString]():   "intorstring",
	reflect.TypeFor[metav1.Time]():          "time",
	reflect.TypeFor[metav1.MicroTime]():     "microtime",
	reflect.TypeFor[metav1.Duration]():      "duration",
	reflect.TypeFor[runtime.RawExtension](): "any",
	reflect.TypeFor[metav1.FieldsV1]():      "any",
}

// goType is one entry of the table: [kind, Go type name, ...]. A struct adds its name and its fields
// ([JSON name, type index] in Go's field order); a map or slice adds its element's index; an integer its
// bit size and signedness.
type goType []any

type table struct {
	Source string         `json:"source"`
	Kinds  map[string]int `json:"kinds"` // "apps/v1/Deployment" -> type index
	Types  []goType       `json:"types"`
	index  map[reflect.Type]int
}

func (t *table) add(rt reflect.Type) (int, error) {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if i, ok := t.index[rt]; ok {
		return i, nil
	}
	i := len(t.Types)
	t.index[rt] = i
	t.Types = append(t.Types, nil)
	entry, err := t.describe(rt)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rt, err)
	}
	t.Types[i] = entry
	return i, nil
}

func (t *table) describe(rt reflect.Type) (goType, error) {
	name := rt.String()
	if s, ok := special[rt]; ok {
		return goType{s, name}, nil
	}
	pt := reflect.PointerTo(rt)
	if pt.Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return nil, fmt.Errorf("has its own UnmarshalJSON that lint does not model")
	}
	if pt.Implements(reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()) {
		return nil, fmt.Errorf("has its own UnmarshalText that lint does not model")
	}
	switch rt.Kind() {
	case reflect.String:
		return goType{"string", name}, nil
	case reflect.Bool:
		return goType{"bool", name}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return goType{"int", name, rt.Bits()}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return goType{"uint", name, rt.Bits()}, nil
	case reflect.Float32, reflect.Float64:
		return goType{"float", name, rt.Bits()}, nil
	case reflect.Interface:
		return goType{"any", name}, nil
	case reflect.Slice:
		if rt.Elem().Kind() == reflect.Uint8 {
			return goType{"bytes", name}, nil
		}
		e, err := t.add(rt.Elem())
		return goType{"slice", name, e}, err
	case reflect.Array:
		return nil, fmt.Errorf("arrays are not modelled")
	case reflect.Map:
		if rt.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys of kind %s are not modelled", rt.Key().Kind())
		}
		e, err := t.add(rt.Elem())
		return goType{"map", name, e}, err
	case reflect.Struct:
		fields, err := t.fields(rt)
		return goType{"struct", name, rt.Name(), fields}, err
	}
	return nil, fmt.Errorf("kind %s is not modelled", rt.Kind())
}

// fields lists a struct's JSON fields as encoding/json finds them: exported, named by the json tag,
// embedded structs without a tag name promoted (TypeMeta's `json:",inline"`), "-" skipped.
func (t *table) fields(rt reflect.Type) ([]any, error) {
	var out []any
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		jsonName, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && jsonName == "" && ft.Kind() == reflect.Struct {
			if _, isSpecial := special[ft]; !isSpecial {
				inner, err := t.fields(ft)
				if err != nil {
					return nil, err
				}
				out = append(out, inner...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		idx, err := t.add(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		out = append(out, []any{jsonName, idx})
	}
	return out, nil
}

func build() (*table, error) {
	t := &table{Kinds: map[string]int{}, index: map[reflect.Type]int{}}
	if info, ok := debug.ReadBuildInfo(); ok {
		versions := map[string]string{}
		for _, m := range info.Deps {
			versions[m.Path] = m.Version
		}
		t.Source = "k8s.io/api " + versions["k8s.io/api"] + ", the kinds client-go's scheme registers; Karmada " +
			versions["github.com/karmada-io/karmada"] + "'s Cluster, ResourceBinding and ClusterResourceBinding"
	}
	all := kubescheme.Scheme.AllKnownTypes()
	gvks := make([]string, 0, len(all))
	byName := map[string]reflect.Type{}
	for gvk, rt := range all {
		if _, ok := rt.FieldByName("ObjectMeta"); !ok || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		key := gvk.GroupVersion().String() + "/" + gvk.Kind
		gvks = append(gvks, key)
		byName[key] = rt
	}
	sort.Strings(gvks)
	for _, key := range gvks {
		i, err := t.add(byName[key])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		t.Kinds[key] = i
	}
	for _, rt := range snapshotTypes {
		if _, err := t.add(rt); err != nil {
			return nil, fmt.Errorf("%s: %w", rt, err)
		}
	}
	return t, nil
}

// encode writes the table as JSON with one kind and one type per line, so that a Kubernetes upgrade reads
// as a diff of the types that changed.
func (t *table) encode() (*bytes.Buffer, error) {
	var buf bytes.Buffer
	line := func(prefix string, v any, last bool) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.WriteString(prefix)
		buf.Write(b)
		if !last {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		return nil
	}
	source, err := json.Marshal(t.Source)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&buf, "{\"source\": %s,\n\"kinds\": {\n", source)
	keys := make([]string, 0, len(t.Kinds))
	for k := range t.Kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		name, _ := json.Marshal(k)
		if err := line(string(name)+": ", t.Kinds[k], i == len(keys)-1); err != nil {
			return nil, err
		}
	}
	buf.WriteString("},\n\"types\": [\n")
	for i, ty := range t.Types {
		if err := line("", ty, i == len(t.Types)-1); err != nil {
			return nil, err
		}
	}
	buf.WriteString("]}\n")
	return &buf, nil
}

func main() {
	check := flag.String("check", "", "compare with this file instead of printing; exit 1 when it differs")
	flag.Parse()
	t, err := build()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(2)
	}
	buf, err := t.encode()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(2)
	}
	if *check == "" {
		os.Stdout.Write(buf.Bytes())
		return
	}
	committed, err := os.ReadFile(*check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotypes:", err)
		os.Exit(2)
	}
	if !bytes.Equal(committed, buf.Bytes()) {
		fmt.Fprintf(os.Stderr, "gotypes: %s is not what client-go's types give; regenerate it with "+
			"build-oracle/gotypes > %s\n", *check, *check)
		os.Exit(1)
	}
	fmt.Printf("gotypes: %s matches client-go's types (%d kinds, %d types)\n", *check, len(t.Kinds), len(t.Types))
}
