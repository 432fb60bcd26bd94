package rules

import (
	"slices"
	"testing"
)

// TestEveryWriteDeclaresAnOutcome: a library is one file of this package,
// and the engine judges a write's outcome only from its declaration, so
// every Write must declare one that its reader can use: a known
// Rejection, the message name of a rejection, and the accessor or the
// error identities the reader looks for.
func TestEveryWriteDeclaresAnOutcome(t *testing.T) {
	for _, lib := range Libs {
		for _, w := range lib.Writes {
			if msg := outcomeProblem(w.Outcome); msg != "" {
				t.Errorf("%s: %s: %s", lib.Name, w.Func, msg)
			}
		}
	}
}

// outcomeProblem says what is missing from o, "" when nothing is.
func outcomeProblem(o Outcome) string {
	if o.Kind == RejectUndeclared {
		return "no Outcome declared (use NoOutcome for a blind write)"
	}
	if !slices.Contains(Rejections, o.Kind) {
		return "Outcome.Kind is not in Rejections"
	}
	if o.Kind == RejectNever || o.Kind == RejectUnmodelled {
		if o.Name != "" || o.Method != "" || o.Field != "" || len(o.Sentinels)+len(o.ErrTypes) > 0 || o.ErrCode != nil {
			return o.Kind.String() + " reads nothing: its other fields must be empty"
		}
		return ""
	}
	if o.Name == "" {
		return "Outcome.Name (the rejection as messages say it) is empty"
	}
	switch o.Kind {
	case RejectRowsAffected, RejectCloseError:
		if o.Method == "" {
			return o.Kind.String() + " needs Method"
		}
	case RejectRowsField, RejectFlagField:
		if o.Field == "" {
			return o.Kind.String() + " needs Field"
		}
	case RejectNoRow:
		if o.Method == "" || len(o.Sentinels) == 0 {
			return "no-row needs Method and Sentinels"
		}
	case RejectReply:
		if o.Method == "" || len(o.Values) == 0 {
			return "reply needs Method (the error accessor) and Values"
		}
	}
	if c := o.ErrCode; c != nil && (c.Type == "" || c.Method == "" || len(c.Codes) == 0) {
		return "ErrCode needs Type, Method and Codes"
	}
	return ""
}

func TestOutcomeProblemReports(t *testing.T) {
	for _, o := range []Outcome{
		{},
		{Kind: Rejection(99)},
		{Kind: RejectNever, Name: "x"},
		{Kind: RejectRowsAffected, Name: "0 rows"},
		{Kind: RejectFlagField, Name: "x"},
		{Kind: RejectError},
		{Kind: RejectNoRow, Name: "x", Method: "Scan"},
		{Kind: RejectError, Name: "x", ErrCode: &ErrCode{Type: "a.B"}},
	} {
		if outcomeProblem(o) == "" {
			t.Errorf("%+v: no problem reported", o)
		}
	}
}
