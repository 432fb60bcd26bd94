package sqlcond

import (
	"strings"
	"testing"
	"time"
)

func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.sql)
	}
	for _, s := range []string{
		"", "'", "E'\\", `"`, "`", "[", "]", "$", "$$", "$a$", "$1$", "::", ":", ":=", "@", "@@", "@@x", "@p",
		"?", "?|", "?1", "#", "#>", "--", "/*", "/* /* */", "*/", "((((((((((", "))", "(;)", ";",
		"UPDATE", "UPDATE t SET", "UPDATE t SET (a, b) = ", "UPDATE t SET (a) = (SELECT 1)",
		"INSERT INTO t (", "INSERT INTO t () VALUES ()", "MERGE INTO t USING s ON WHEN MATCHED THEN",
		"WITH", "WITH a AS", "WITH a (x) AS (SELECT 1)", "SELECT CASE WHEN END = 1 FROM t WHERE CASE END",
		"UPDATE t SET a = 1 WHERE a BETWEEN AND AND OR OR", "UPDATE t SET a = 1 WHERE ()",
		"UPDATE t SET a = 1 WHERE (a = 1 OR ()) AND (NOT) AND IS NULL", "SELECT x::", "SELECT CAST(",
		"SELECT CAST(x AS) FROM t", "UPDATE t SET a = VALUES() WHERE b = VALUES(", "UPDATE ünï SET ä = 'ö' WHERE 名前 = $1",
		"\xff\xfe\x00?", "SELECT $99999999999999999999999, @p99999999999999999999", "INSERT INTO t VALUES ROW(",
		strings.Repeat("(", 70) + strings.Repeat(")", 70),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		stmts, err := parse(sql) // not Parse: its recover would hide bugs
		if err != nil {
			return
		}
		checkInvariants(t, sql, stmts)
	})
}

// checkInvariants asserts what every caller relies on: offsets inside the
// input, texts at their offsets, placeholders where the input has a sigil,
// in order, and '?' ordinals numbered 1..n across the input.
func checkInvariants(t *testing.T, sql string, stmts []*Statement) {
	t.Helper()
	at := func(what, text string, off int) {
		t.Helper()
		if off < 0 || off > len(sql) || off+len(text) > len(sql) || sql[off:off+len(text)] != text {
			t.Fatalf("%s %q not at offset %d of %q", what, text, off, sql)
		}
	}
	var conds func(cs []Conjunct)
	operand := func(o Operand) {
		if o.Text != "" && !strings.Contains(sql, o.Text) {
			t.Fatalf("operand %q not in input", o.Text)
		}
	}
	conds = func(cs []Conjunct) {
		for _, c := range cs {
			at("conjunct", c.Text, c.Offset)
			for _, cmp := range c.Or {
				at("comparison", cmp.Text, cmp.Offset)
				operand(cmp.Left)
				operand(cmp.Right)
			}
		}
	}
	assigns := func(as []Assignment) {
		for _, a := range as {
			at("assignment", "", a.Offset)
			operand(a.Value)
		}
	}
	last, ordinal := -1, 0
	for _, st := range stmts {
		at("statement", st.Text, st.Offset)
		for _, ph := range st.Params {
			if ph.Offset <= last || ph.Offset >= len(sql) || strings.IndexByte("$?:@", sql[ph.Offset]) < 0 {
				t.Fatalf("placeholder %+v out of order or not at a sigil in %q", ph, sql)
			}
			last = ph.Offset
			if ph.Kind == Ordinal {
				ordinal++
				if ph.Index != ordinal {
					t.Fatalf("ordinal %d has Index %d in %q", ordinal, ph.Index, sql)
				}
			}
		}
		conds(st.Where)
		conds(st.ConflictWhere)
		conds(st.MatchedWhere)
		assigns(st.Set)
		assigns(st.ConflictSet)
	}
}

// timeParse returns the fastest of three runs: on a shared machine one
// run measures the neighbours as much as the parser.
func timeParse(sql string) ([]*Statement, time.Duration, error) {
	var best time.Duration
	var stmts []*Statement
	var err error
	for i := range 3 {
		start := time.Now()
		stmts, err = Parse(sql)
		if d := time.Since(start); i == 0 || d < best {
			best = d
		}
	}
	return stmts, best, err
}

func TestLargeStatement(t *testing.T) {
	var b strings.Builder
	b.WriteString("UPDATE t SET v = $1 WHERE fence < $2 AND id IN (")
	for i := 0; b.Len() < 1<<20; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$3")
	}
	b.WriteString(")")
	stmts, d, err := timeParse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	// Uncontended this is ~65 ms; the bound only has to catch a quadratic
	// reader (minutes), not a busy shared CI machine.
	if d > 5*time.Second {
		t.Errorf("1 MB statement took %v", d)
	}
	if len(stmts) != 1 || len(stmts[0].Where) != 2 || stmts[0].Where[1].Or[0].Op != "IN" {
		t.Errorf("got %d statements", len(stmts))
	}
}

func TestLargeOrAndQuestionMarks(t *testing.T) {
	sql := "UPDATE t SET v = ? WHERE " + strings.Repeat("a = ? OR ", 100_000) + "a = ?"
	stmts, d, err := timeParse(sql)
	if err != nil {
		t.Fatal(err)
	}
	if d > 5*time.Second {
		t.Errorf("%d bytes took %v", len(sql), d)
	}
	if n := len(stmts[0].Where[0].Or); n != 100_001 {
		t.Errorf("%d alternatives", n)
	}
}

func TestDeepNesting(t *testing.T) {
	for _, sql := range []string{
		"SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000),
		"UPDATE t SET v = 1 WHERE " + strings.Repeat("(", 100_000),
		strings.Repeat("(a = 1 OR ", 100_000) + "b" + strings.Repeat(")", 100_000),
	} {
		if _, err := Parse(sql); err == nil {
			t.Errorf("deep nesting of %d bytes parsed without error", len(sql))
		}
	}
	// The deepest accepted nesting still reads.
	sql := "UPDATE t SET v = 1 WHERE " + strings.Repeat("(a = 1 OR ", MaxNesting) + "b = $1" + strings.Repeat(")", MaxNesting)
	stmts, err := Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(stmts[0].Where[0].Or); n != MaxNesting+1 {
		t.Errorf("%d alternatives, want %d", n, MaxNesting+1)
	}
}
