package lazyregexp

import (
	"sync"
	"testing"
)

func TestCompiledOnceUnderConcurrentUse(t *testing.T) {
	r := &Regexp{str: `^a(\d+)$`} // not through New: New compiles at once in tests
	if r.rx != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.FindStringSubmatch("a42"); len(m) != 2 || m[1] != "42" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
			if r.MatchString("b") {
				t.Error("matched b")
			}
		}()
	}
	wg.Wait()
	if r.String() != `^a(\d+)$` {
		t.Errorf("String = %q", r.String())
	}
}

func TestNewCompilesInTests(t *testing.T) {
	if !inTest {
		t.Fatal("inTest is false in a test binary")
	}
	if New(`x+`).rx == nil {
		t.Fatal("New did not compile at once in a test binary")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern did not panic")
		}
	}()
	New(`(`)
}
