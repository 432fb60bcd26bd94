package ddbcond

import (
	"errors"
	"strings"
	"testing"
)

var condSeeds = []string{
	"attribute_not_exists(fence_token) OR fence_token < :tok",
	"#f < :t AND #o = :owner",
	":tok > fence_token",
	"NOT attribute_exists(pk)",
	"a BETWEEN :lo AND :hi AND b IN (:x, :y)",
	"size(#p.a[3]) >= :n OR NOT (contains(tags, :t) AND begins_with(sk, :p))",
	"((a = :a)) AND NOT NOT b <> :b",
	"attribute_type(a, :t) or a <= :x",
	"a IN (",
	"(((",
	"#",
	"a[99999999999999999999] = :a",
}

var updateSeeds = []string{
	"SET balance = balance - :amt, fence_token = :tok",
	"SET #v = :v, #f = :tok REMOVE lockedBy",
	"ADD counter :one",
	"SET n = if_not_exists(n, :zero) + :one DELETE s :s",
	"SET l = list_append(if_not_exists(l, :empty), :new) REMOVE a.b[1], c",
	"SET a = size(",
	"REMOVE",
}

func FuzzParseCondition(f *testing.F) {
	for _, s := range condSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		cs, err := ParseCondition(expr)
		if err != nil {
			checkErr(t, expr, err)
			return
		}
		if len(cs) == 0 {
			t.Fatalf("%q: no conjuncts and no error", expr)
		}
		checkCondOffsets(t, expr, cs)
		for _, c := range cs {
			for _, a := range c.Or {
				Resolve(a.Left.Path, map[string]string{"#f": "fence"})
			}
		}
		Placeholders(expr)
	})
}

func FuzzParseUpdate(f *testing.F) {
	for _, s := range updateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		as, err := ParseUpdate(expr)
		if err != nil {
			checkErr(t, expr, err)
			return
		}
		if len(as) == 0 {
			t.Fatalf("%q: no actions and no error", expr)
		}
		checkUpdateOffsets(t, expr, as)
		for _, a := range as {
			for _, v := range a.Values {
				if !strings.HasPrefix(v, ":") || !strings.Contains(a.Text, v) {
					t.Errorf("%q: placeholder %q not in action %q", expr, v, a.Text)
				}
			}
		}
	})
}

func checkErr(t *testing.T, expr string, err error) {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%q: error %v is not a *SyntaxError", expr, err)
	}
	if se.Offset < 0 || se.Offset > len(expr) {
		t.Fatalf("%q: error offset %d out of range", expr, se.Offset)
	}
}
