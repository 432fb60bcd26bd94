package fence

import (
	"slices"
	"testing"

	"github.com/fencelint/fencelint/rules"
)

// TestEveryDeclarationHasAReader is the contract between rules/ and the
// engine: a library is one rules/ file because the engine reads every
// write through the reader of its declared mechanism (writeReaders, by
// rules.WriteKind) and follows its result through the reader of its
// declared outcome (outcomeReaders, by rules.Rejection), never by the
// store's or the method's name. So every kind and every rejection rules/
// can declare must have a reader, and every rule must declare both.
func TestEveryDeclarationHasAReader(t *testing.T) {
	for _, k := range rules.WriteKinds {
		if writeReaders[k] == nil {
			t.Errorf("rules.WriteKind %d: no reader in writeReaders", k)
		}
		if k.Mechanism() == 0 {
			t.Errorf("rules.WriteKind %d: no Mechanism", k)
		}
	}
	for k := range writeReaders {
		if !slices.Contains(rules.WriteKinds, k) {
			t.Errorf("writeReaders reads rules.WriteKind %d, which rules.WriteKinds does not list", k)
		}
	}
	for _, r := range rules.Rejections {
		rd, ok := outcomeReaders[r]
		switch {
		case !ok:
			t.Errorf("rules.%v: no reader in outcomeReaders", r)
		case r == rules.RejectNever || r == rules.RejectUnmodelled:
			if rd.read != nil || rd.kind != OutcomeNone {
				t.Errorf("rules.%v is not followed, but its reader is set", r)
			}
		case rd.read == nil || rd.kind == OutcomeNone:
			t.Errorf("rules.%v: its reader follows nothing", r)
		}
	}
	for _, lib := range rules.Libs {
		for _, w := range lib.Writes {
			if !slices.Contains(rules.WriteKinds, w.Kind) {
				t.Errorf("%s: %s: Kind %d is not in rules.WriteKinds", lib.Name, w.Func, w.Kind)
			}
			if _, ok := outcomeReaders[w.Outcome.Kind]; !ok {
				t.Errorf("%s: %s: Outcome %v has no reader", lib.Name, w.Func, w.Outcome.Kind)
			}
			// A blind mechanism has nothing to reject it.
			if w.Kind.Mechanism() == rules.MechBlind && w.Outcome.Kind != rules.RejectNever {
				t.Errorf("%s: %s: a blind write declares Outcome %v, want rules.NoOutcome", lib.Name, w.Func, w.Outcome.Kind)
			}
		}
	}
}
