package fence_test

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/fencetest"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFacts checks that exactly the expected facts are exported.
func TestFacts(t *testing.T) {
	analysistest.Run(t, fencetest.TestData(t), fence.Analyzer, "fence/facts/...")
}

// TestFactsRoundTrip checks that every fact survives gob (go vet's fact
// files) unchanged and stays small.
func TestFactsRoundTrip(t *testing.T) {
	facts := []any{
		&fence.FuncFact{Acquire: true, TokenResult: 0, Callback: -1, LeaseArg: -1, Lock: "etcd mutex"},
		&fence.FuncFact{Write: true, FencedBy: []int{3}, TokenParams: []int{3}, Callback: -1, LeaseArg: -1, TokenResult: -1},
		&fence.FuncFact{Write: true, Unfenced: "a SQL write to accounts with no fence", Callback: -1, LeaseArg: -1, TokenResult: -1},
		&fence.FuncFact{Callback: 2, LeaseArg: 1, TokenResult: -1},
		&fence.FuncFact{NoReturn: true, Callback: -1, LeaseArg: -1, TokenResult: -1},
		&fence.TokenFieldFact{},
		&fence.CallbackFieldFact{Lock: "leader election (OnStartedLeading)", NoToken: true},
		&fence.PackageFact{},
	}
	for _, f := range facts {
		// A fact file is one gob stream per package, so the type's
		// description is paid once per file and each further fact costs
		// only its value: bound both.
		var buf bytes.Buffer
		enc := gob.NewEncoder(&buf)
		if err := enc.Encode(f); err != nil {
			t.Fatalf("encode %T: %v", f, err)
		}
		first := buf.Len()
		if first > 1024 {
			t.Errorf("%T encodes to %d bytes with its type description; facts must stay small", f, first)
		}
		var again bytes.Buffer
		enc2 := gob.NewEncoder(&again)
		_ = enc2.Encode(f)
		n := again.Len()
		_ = enc2.Encode(f)
		if value := again.Len() - n; value > 128 {
			t.Errorf("%T's value encodes to %d bytes; facts must stay small", f, value)
		}
		if ff, ok := f.(*fence.FuncFact); ok {
			var back fence.FuncFact
			if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if back.String() != ff.String() || back.Lock != ff.Lock || back.Unfenced != ff.Unfenced {
				t.Errorf("round trip changed %v into %v", ff, &back)
			}
		}
	}
}
