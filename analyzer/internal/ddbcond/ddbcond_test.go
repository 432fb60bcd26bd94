package ddbcond

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// show renders conjuncts compactly so table rows stay readable:
// conjuncts are joined by " && ", alternatives by " || ", a negated
// comparison is prefixed with "!", an Unknown conjunct prints as "?{text}".
func show(cs []Conjunct) string {
	var parts []string
	for _, c := range cs {
		if c.Unknown {
			parts = append(parts, "?{"+c.Text+"}")
			continue
		}
		var alts []string
		for _, a := range c.Or {
			alts = append(alts, showCmp(a))
		}
		parts = append(parts, strings.Join(alts, " || "))
	}
	return strings.Join(parts, " && ")
}

func showCmp(c Comparison) string {
	s := showOp(c.Left) + " " + c.Op
	if c.Right.Text != "" {
		s += " " + showOp(c.Right)
	}
	for _, e := range c.Extra {
		s += " " + showOp(e)
	}
	if c.Negated {
		s = "!(" + s + ")"
	}
	return s
}

func showOp(o Operand) string {
	switch {
	case o.Path != "":
		return "P:" + o.Path
	case o.Value != "":
		return "V" + o.Value
	case o.Func != "":
		var args []string
		for _, a := range o.Args {
			args = append(args, showOp(a))
		}
		return "F:" + o.Func + "(" + strings.Join(args, ",") + ")"
	}
	return "<zero>"
}

func TestParseCondition(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		// The seed idiom: one conjunct, two alternatives.
		{"attribute_not_exists(fence_token) OR fence_token < :tok",
			"P:fence_token attribute_not_exists || P:fence_token < V:tok"},
		{"#f < :t AND #o = :owner", "P:#f < V:t && P:#o = V:owner"},
		{":tok > fence_token", "V:tok > P:fence_token"},
		{"NOT attribute_exists(pk)", "!(P:pk attribute_exists)"},
		{"a BETWEEN :lo AND :hi AND b IN (:x, :y)", "P:a BETWEEN V:lo V:hi && P:b IN V:x V:y"},
		{"a = :a", "P:a = V:a"},
		{"a <> :a", "P:a <> V:a"},
		{"a<=:a AND b>=:b AND c>:c", "P:a <= V:a && P:b >= V:b && P:c > V:c"},
		{"a.b[0].c = :v", "P:a.b[0].c = V:v"},
		{"#m.#k[12] = :v", "P:#m.#k[12] = V:v"},
		{"size(#p) > :n", "F:size(P:#p) > V:n"},
		{"SIZE(a) = :n", "F:size(P:a) = V:n"},
		{"attribute_type(a, :t)", "P:a attribute_type V:t"},
		{"begins_with(sk, :p) and pk = :pk", "P:sk begins_with V:p && P:pk = V:pk"},
		{"contains(tags, :t)", "P:tags contains V:t"},
		{"(a = :a OR b = :b) AND c = :c", "P:a = V:a || P:b = V:b && P:c = V:c"},
		{"a = :a OR (b = :b OR c = :c)", "P:a = V:a || P:b = V:b || P:c = V:c"},
		{"(a = :a AND b = :b) AND c = :c", "P:a = V:a && P:b = V:b && P:c = V:c"},
		{"a = :a OR b = :b AND c = :c", "?{a = :a OR b = :b AND c = :c}"},
		{"NOT (a = :a OR b = :b)", "?{NOT (a = :a OR b = :b)}"},
		{"NOT (fence < :t)", "!(P:fence < V:t)"},
		{"NOT NOT fence < :t", "P:fence < V:t"},
		{"not attribute_exists(a) or a < :t", "!(P:a attribute_exists) || P:a < V:t"},
		{"((a = :a))", "P:a = V:a"},
		{"a IN (:x)", "P:a IN V:x"},
		{"a between :x and :y", "P:a BETWEEN V:x V:y"},
		{"x = y", "P:x = P:y"},
		{"  a\t=\n:a  ", "P:a = V:a"},
		{"attribute_not_exists(pk) OR (fence < :tok AND owner = :me)", "?{attribute_not_exists(pk) OR (fence < :tok AND owner = :me)}"},
	}
	for _, tt := range tests {
		got, err := ParseCondition(tt.expr)
		if err != nil {
			t.Errorf("ParseCondition(%q): %v", tt.expr, err)
			continue
		}
		if s := show(got); s != tt.want {
			t.Errorf("ParseCondition(%q)\n got %s\nwant %s", tt.expr, s, tt.want)
		}
		checkCondOffsets(t, tt.expr, got)
	}
}

func TestParseConditionText(t *testing.T) {
	expr := "(attribute_not_exists(fence_token) OR (NOT fence_token >= :tok)) AND (#o = :owner)"
	got, err := ParseCondition(expr)
	if err != nil {
		t.Fatal(err)
	}
	want := []Conjunct{
		{
			Text:   "(attribute_not_exists(fence_token) OR (NOT fence_token >= :tok))",
			Offset: 0,
			Or: []Comparison{
				{
					Op:     "attribute_not_exists",
					Left:   Operand{Path: "fence_token", Text: "fence_token"},
					Text:   "attribute_not_exists(fence_token)",
					Offset: 1,
				},
				{
					Op:      ">=",
					Left:    Operand{Path: "fence_token", Text: "fence_token"},
					Right:   Operand{Value: ":tok", Text: ":tok"},
					Negated: true,
					Text:    "NOT fence_token >= :tok",
					Offset:  39,
				},
			},
		},
		{
			Text:   "(#o = :owner)",
			Offset: 69,
			Or: []Comparison{{
				Op:     "=",
				Left:   Operand{Path: "#o", Text: "#o"},
				Right:  Operand{Value: ":owner", Text: ":owner"},
				Text:   "#o = :owner",
				Offset: 70,
			}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestParseConditionErrors(t *testing.T) {
	tests := []struct {
		expr string
		off  int
		msg  string
	}{
		{"", 0, "empty condition"},
		{"   ", 0, "empty condition"},
		{"a", 1, "expected a comparator"},
		{"a = ", 4, "expected a path"},
		{"a = :b AND", 10, "expected a path"},
		{"a = :b c = :d", 7, "unexpected \"c\""},
		{"(a = :b", 7, "expected \")\""},
		{"a = :b)", 6, "unexpected \")\""},
		{"a BETWEEN :x :y", 13, "expected AND in BETWEEN"},
		{"a IN :x", 5, "after IN"},
		{"a IN (:x :y)", 9, "in IN list"},
		{"attribute_exists(a, b)", 0, "takes 1 argument"},
		{"size(a)", 7, "expected a comparator"},
		{"a = attribute_exists(b)", 4, "is a condition, not an operand"},
		{"frobnicate(a)", 0, "unknown function"},
		{"a = :a OR b = :b AND c", 22, "expected a comparator"},
		{"a = frobnicate(b)", 4, "unknown function"},
		{"a = :", 4, "must be followed by a name"},
		{"# = :a", 0, "must be followed by a name"},
		{"a = 'x'", 4, "unexpected character"},
		{"a.= :a", 2, "expected a name after"},
		{"a[x] = :a", 2, "expected a list index"},
		{"a[1 = :a", 4, "expected \"]\""},
		{"AND = :a", 0, "unexpected keyword AND"},
		{"a = :a OR", 9, "expected a path"},
		{strings.Repeat("(", 65) + "a = :a" + strings.Repeat(")", 65), 64, "nested deeper than 64"},
		{strings.Repeat("NOT ", 65) + "a = :a", 256, "nested deeper than 64"},
	}
	for _, tt := range tests {
		_, err := ParseCondition(tt.expr)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseCondition(%q) = %v, want *SyntaxError", tt.expr, err)
			continue
		}
		if se.Offset != tt.off || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseCondition(%q) error = %v, want offset %d containing %q", tt.expr, err, tt.off, tt.msg)
		}
	}
}

func TestDepthLimitBoundary(t *testing.T) {
	ok := strings.Repeat("(", MaxDepth) + "a = :a" + strings.Repeat(")", MaxDepth)
	if _, err := ParseCondition(ok); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	ok = strings.Repeat("NOT ", MaxDepth) + "a = :a"
	if _, err := ParseCondition(ok); err != nil {
		t.Errorf("%d NOTs: %v", MaxDepth, err)
	}
}

// TestLongChains checks that long flat AND/OR chains, which are iterative in
// the parser, are neither rejected by the depth limit nor slow.
func TestLongChains(t *testing.T) {
	terms := make([]string, 5000)
	for i := range terms {
		terms[i] = fmt.Sprintf("a%d = :v%d", i, i)
	}
	for _, sep := range []string{" AND ", " OR "} {
		got, err := ParseCondition(strings.Join(terms, sep))
		if err != nil {
			t.Fatal(err)
		}
		n := len(got)
		if sep == " OR " {
			n = len(got[0].Or)
		}
		if n != len(terms) {
			t.Errorf("%q chain: got %d terms, want %d", sep, n, len(terms))
		}
	}
}

func showActions(as []Action) string {
	var parts []string
	for _, a := range as {
		s := a.Clause + " P:" + a.Path
		if a.Value.Text != "" {
			s += " " + showOp(a.Value)
		}
		if len(a.Values) > 0 {
			s += " " + strings.Join(a.Values, "/")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestParseUpdate(t *testing.T) {
	tests := []struct {
		expr, want string
	}{
		{"SET balance = balance - :amt, fence_token = :tok",
			"SET P:balance F:-(P:balance,V:amt) :amt; SET P:fence_token V:tok :tok"},
		{"SET #v = :v, #f = :tok REMOVE lockedBy",
			"SET P:#v V:v :v; SET P:#f V:tok :tok; REMOVE P:lockedBy"},
		{"ADD counter :one", "ADD P:counter V:one :one"},
		{"set a = :a remove b, c[2] add n :n delete s :s",
			"SET P:a V:a :a; REMOVE P:b; REMOVE P:c[2]; ADD P:n V:n :n; DELETE P:s V:s :s"},
		{"REMOVE x SET y = :y", "REMOVE P:x; SET P:y V:y :y"},
		{"SET n = if_not_exists(n, :zero) + :one",
			"SET P:n F:+(F:if_not_exists(P:n,V:zero),V:one) :zero/:one"},
		{"SET l = list_append(if_not_exists(l, :empty), :new)",
			"SET P:l F:list_append(F:if_not_exists(P:l,V:empty),V:new) :empty/:new"},
		{"SET a.b[0].#c = other.path", "SET P:a.b[0].#c P:other.path"},
		{"SET a = :a+:b", "SET P:a F:+(V:a,V:b) :a/:b"},
	}
	for _, tt := range tests {
		got, err := ParseUpdate(tt.expr)
		if err != nil {
			t.Errorf("ParseUpdate(%q): %v", tt.expr, err)
			continue
		}
		if s := showActions(got); s != tt.want {
			t.Errorf("ParseUpdate(%q)\n got %s\nwant %s", tt.expr, s, tt.want)
		}
		checkUpdateOffsets(t, tt.expr, got)
	}
}

func TestParseUpdateText(t *testing.T) {
	expr := "SET balance = balance - :amt, fence_token = :tok REMOVE x"
	got, err := ParseUpdate(expr)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text, value string
		off         int
	}{
		{"balance = balance - :amt", "balance - :amt", 4},
		{"fence_token = :tok", ":tok", 30},
		{"x", "", 56},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d actions, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Text != w.text || got[i].Value.Text != w.value || got[i].Offset != w.off {
			t.Errorf("action %d = {%q %q %d}, want {%q %q %d}", i,
				got[i].Text, got[i].Value.Text, got[i].Offset, w.text, w.value, w.off)
		}
	}
}

func TestParseUpdateErrors(t *testing.T) {
	tests := []struct {
		expr string
		off  int
		msg  string
	}{
		{"", 0, "empty update"},
		{"a = :a", 0, "expected SET, REMOVE, ADD or DELETE"},
		{"SET a = :a SET b = :b", 11, "SET clause may appear only once"},
		{"SET a :a", 6, "expected \"=\""},
		{"SET a < :a", 6, "expected \"=\""},
		{"SET a = :a,", 11, "expected a path"},
		{"SET :a = b", 4, "expected a path"},
		{"SET a = :a + ", 13, "expected a path"},
		{"SET a = :a + :b + :c", 16, "expected SET"},
		{"REMOVE a = :a", 9, "expected SET"},
		{"ADD c", 5, "expected a path"},
		{"SET a = if_not_exists(a)", 8, "takes 2 argument"},
		{"SET a = size(b)x", 15, "expected SET"},
		{"SET REMOVE = :a", 4, "unexpected keyword REMOVE"},
	}
	for _, tt := range tests {
		_, err := ParseUpdate(tt.expr)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseUpdate(%q) = %v, want *SyntaxError", tt.expr, err)
			continue
		}
		if se.Offset != tt.off || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseUpdate(%q) error = %v, want offset %d containing %q", tt.expr, err, tt.off, tt.msg)
		}
	}
}

func TestResolve(t *testing.T) {
	names := map[string]string{"#f": "fence_token", "#m": "meta", "#": "bad"}
	tests := []struct{ in, want string }{
		{"#f", "fence_token"},
		{"#m.#f[0]", "meta.fence_token[0]"},
		{"#unknown.#f", "#unknown.fence_token"},
		{"plain", "plain"},
		{"#", "#"},
		{"a.#", "a.#"},
		{"#fx", "#fx"},
	}
	for _, tt := range tests {
		if got := Resolve(tt.in, names); got != tt.want {
			t.Errorf("Resolve(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Resolve("#f", nil); got != "#f" {
		t.Errorf("Resolve with nil names = %q", got)
	}
}

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"#a, :b, c.:d", []string{":b", ":d"}},
		{":x = :x", []string{":x", ":x"}},
		{"a : b ::c", []string{":c"}},
		{"", nil},
		{":", nil},
	}
	for _, tt := range tests {
		if got := Placeholders(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Placeholders(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// checkCondOffsets verifies the invariant the analyzers rely on to map
// findings back into string literals: every Text is the slice of expr at
// Offset.
func checkCondOffsets(t *testing.T, expr string, cs []Conjunct) {
	t.Helper()
	for _, c := range cs {
		checkSpan(t, expr, c.Offset, c.Text)
		if c.Unknown != (c.Or == nil) {
			t.Errorf("%q: Unknown=%v with %d alternatives", expr, c.Unknown, len(c.Or))
		}
		for _, a := range c.Or {
			checkSpan(t, expr, a.Offset, a.Text)
			if !strings.Contains(c.Text, a.Text) {
				t.Errorf("%q: comparison %q outside conjunct %q", expr, a.Text, c.Text)
			}
			checkOperand(t, expr, a.Text, a.Left)
			if a.Op == "=" || a.Op == "<" {
				checkOperand(t, expr, a.Text, a.Right)
			}
		}
	}
}

func checkUpdateOffsets(t *testing.T, expr string, as []Action) {
	t.Helper()
	for _, a := range as {
		checkSpan(t, expr, a.Offset, a.Text)
		if !strings.HasPrefix(a.Text, a.Path) && !strings.Contains(a.Path, "[") {
			t.Errorf("%q: action text %q does not start with path %q", expr, a.Text, a.Path)
		}
		if a.Clause != "REMOVE" {
			checkOperand(t, expr, a.Text, a.Value)
		}
	}
}

func checkSpan(t *testing.T, expr string, off int, text string) {
	t.Helper()
	if off < 0 || off > len(expr) || off+len(text) > len(expr) || expr[off:off+len(text)] != text {
		t.Errorf("%q: span %d %q is not a slice of the expression", expr, off, text)
	}
}

func checkOperand(t *testing.T, expr, outer string, o Operand) {
	t.Helper()
	if o.Text == "" || !strings.Contains(outer, o.Text) {
		t.Errorf("%q: operand text %q not inside %q", expr, o.Text, outer)
	}
	if n := btoi(o.Path != "") + btoi(o.Value != "") + btoi(o.Func != ""); n != 1 {
		t.Errorf("%q: operand %+v has %d kinds", expr, o, n)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPathological feeds large hostile inputs; a quadratic or deeply
// recursive path would show up here as a timeout or a stack overflow.
func TestPathological(t *testing.T) {
	const n = 50000
	conds := []string{
		strings.Repeat("(", n),
		strings.Repeat("NOT ", n) + "a = :a",
		strings.Repeat("size(", n),
		"a = " + strings.Repeat("b.", n) + "c",
		"a IN (" + strings.Repeat(":x, ", n) + ":y)",
		strings.Repeat("a", n) + " = :a",
		"a[" + strings.Repeat("1", n) + "] = :a",
		strings.Repeat("a = :a AND ", n),
	}
	for _, c := range conds {
		ParseCondition(c)
		Placeholders(c)
		Resolve(c, map[string]string{"#a": "x"})
	}
	updates := []string{
		"SET " + strings.Repeat("a = :a, ", n) + "b = :b",
		"SET a = " + strings.Repeat("list_append(", n),
		"REMOVE " + strings.Repeat("a.", n) + "b",
	}
	for _, u := range updates {
		ParseUpdate(u)
	}
	if _, err := ParseCondition(strings.Repeat("size(", n)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep size( nesting: %v", err)
	}
}
