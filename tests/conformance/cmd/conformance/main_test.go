package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseInterleavedTakesFlagsAnywhere(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantPos  []string
		wantOut  string
		wantRuns int
	}{
		{"flags first", []string{"--out", "d", "--oracle-runs", "3", "2000", "1"}, []string{"2000", "1"}, "d", 3},
		{"flags last", []string{"2000", "1", "--out", "d"}, []string{"2000", "1"}, "d", 5},
		{"flags between", []string{"2000", "--out=d", "1"}, []string{"2000", "1"}, "d", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			var c common
			c.register(fs)
			out := fs.String("out", "", "")
			pos, err := parseInterleaved(fs, tt.args)
			if err != nil || !reflect.DeepEqual(pos, tt.wantPos) || *out != tt.wantOut || c.oracleRuns != tt.wantRuns {
				t.Errorf("positional %q, out %q, runs %d, err %v", pos, *out, c.oracleRuns, err)
			}
		})
	}
}

func TestRunRefusesBadUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", nil, "usage:"},
		{"unknown subcommand", []string{"check"}, "usage:"},
		{"fuzz without N", []string{"fuzz"}, "usage:"},
		{"fuzz with a word for N", []string{"fuzz", "many"}, "non-negative integers"},
		{"missing binary", []string{"run", "--lint", "/nonexistent/lint", "--oracle", "/nonexistent/oracle", "main.go"}, "build it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.want)
			}
		})
	}
}

// A fuzz --out directory (only case directories) stands for all of its cases.
func TestExpandDirsTakesADirectoryOfCases(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []string{"1-3", "1-7"} {
		if err := os.MkdirAll(filepath.Join(dir, c), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c, "policies.yaml"), []byte("kind: X\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := expandDirs([]string{dir})
	if err != nil || len(got) != 2 || got[0].Name != filepath.Join(dir, "1-3") {
		t.Errorf("expandDirs = %+v, %v", got, err)
	}
}
