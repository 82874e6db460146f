package e2eenv

import (
	"sort"
	"strings"
)

// ScheduleResult is the placement in karmada-scheduler's ScheduleBindingSucceed event message ("...
// Result: {member1:2, member2:1}") as "member1=2,member2=1", sorted; false for a message without one.
func ScheduleResult(message string) (string, bool) {
	_, result, ok := strings.Cut(message, "Result: {")
	if !ok {
		return "", false
	}
	var cs []string
	for _, c := range strings.Split(strings.TrimSuffix(result, "}"), ", ") {
		cs = append(cs, strings.Replace(c, ":", "=", 1))
	}
	sort.Strings(cs)
	return strings.Join(cs, ","), true
}
