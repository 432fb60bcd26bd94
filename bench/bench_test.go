package bench

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"time"

	"github.com/fencelint/fencelint/analyzer"
	"github.com/fencelint/fencelint/bench/gen"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// engine returns fencelint's shared engine (the only analyzer with real
// cost; the six analyzers only read its model), found through Requires
// because its package is internal to analyzer/.
func engine(tb testing.TB) *analysis.Analyzer {
	for _, a := range analyzer.Analyzers() {
		for _, r := range a.Requires {
			if r.Name == "fencelint_fence" {
				return r
			}
		}
	}
	tb.Fatal("no analyzer requires fencelint_fence")
	return nil
}

// cost is what one engine run on the target package took.
type cost struct {
	cpu     time.Duration // process user+sys CPU during the run
	wall    time.Duration
	mallocs uint64 // heap objects allocated
	bytes   uint64 // heap bytes allocated
	writes  int    // len(Model.Writes)
}

func (c cost) String() string {
	return fmt.Sprintf("cpu=%v wall=%v mallocs=%d alloc=%dMB writes=%d",
		c.cpu.Round(time.Millisecond), c.wall.Round(time.Millisecond), c.mallocs, c.bytes>>20, c.writes)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measureEngine runs the engine through the x/tools checker on pkgs (and,
// because it has facts, on all their dependencies) and returns the cost of
// its run on the package target. The target is the only root and depends
// on everything else, so nothing else runs while it is measured.
func measureEngine(tb testing.TB, pkgs []*packages.Package, target string) cost {
	eng := engine(tb)
	var c cost
	w := *eng
	w.Run = func(pass *analysis.Pass) (any, error) {
		if pass.Pkg.Path() != target {
			return eng.Run(pass)
		}
		// GC off during the run: the CPU measured is the engine's own work,
		// not whether a collection of the (constant) loaded program happened
		// to fall inside it; allocation is guarded separately.
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		cpu0, start := cpuTime(), time.Now()
		res, err := eng.Run(pass)
		c.wall, c.cpu = time.Since(start), cpuTime()-cpu0
		runtime.ReadMemStats(&m1)
		c.mallocs, c.bytes = m1.Mallocs-m0.Mallocs, m1.TotalAlloc-m0.TotalAlloc
		if v := reflect.ValueOf(res); v.Kind() == reflect.Pointer && !v.IsNil() {
			if f := v.Elem().FieldByName("Writes"); f.IsValid() {
				c.writes = f.Len()
			}
		}
		return res, err
	}
	g, err := checker.Analyze([]*analysis.Analyzer{&w}, pkgs, nil)
	if err != nil {
		tb.Fatal(err)
	}
	for act := range g.All() {
		if act.Err != nil && act.Package.PkgPath == target {
			tb.Fatalf("%s: %v", target, act.Err)
		}
	}
	if c.wall == 0 {
		tb.Fatalf("engine never ran on %s", target)
	}
	return c
}

// load generates a module with cfg and loads pattern from it.
func load(tb testing.TB, cfg gen.Config, pattern string) []*packages.Package {
	dir := tb.TempDir()
	if _, err := gen.Write(dir, cfg); err != nil {
		tb.Fatal(err)
	}
	pcfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: append(os.Environ(), "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(pcfg, pattern)
	if err != nil {
		tb.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) != 1 {
		tb.Fatalf("loading %s: %d packages or errors", pattern, len(pkgs))
	}
	return pkgs
}

// svc loads one generated package of n functions.
func svc(tb testing.TB, n int) ([]*packages.Package, string) {
	pkgs := load(tb, gen.Config{N: n, PerPkg: n}, "./svc/...")
	return pkgs, pkgs[0].PkgPath
}

// best runs f reps times and keeps the smallest CPU time (the machine is
// shared; allocation counts are deterministic).
func best(reps int, f func() cost) cost {
	c := f()
	for range reps - 1 {
		if d := f(); d.cpu < c.cpu {
			c = d
		}
	}
	return c
}

// TestGrowthLinear guards the engine's growth with the size of a
// lock-heavy package: 4x the functions (every one of them in a lock scope
// or writing) must cost less than 6x the CPU time and allocations. A
// fixpoint or a path explosion over the package shows up as 16x.
func TestGrowthLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and analyses 5,000 functions")
	}
	const small, large = 1000, 4000
	pk1, t1 := svc(t, small)
	c1 := best(2, func() cost { return measureEngine(t, pk1, t1) })
	pk4, t4 := svc(t, large)
	c4 := best(2, func() cost { return measureEngine(t, pk4, t4) })
	t.Logf("N=%d: %v", small, c1)
	t.Logf("N=%d: %v", large, c4)
	if c1.writes == 0 {
		t.Fatal("the engine found no writes in the generated package: the fast path or the generator is broken")
	}
	ratio := func(a, b float64) float64 { return b / a }
	rm := ratio(float64(c1.mallocs), float64(c4.mallocs))
	rc := ratio(float64(c1.cpu), float64(c4.cpu))
	rw := ratio(float64(c1.writes), float64(c4.writes))
	t.Logf("x%d functions: x%.2f writes, x%.2f mallocs, x%.2f CPU", large/small, rw, rm, rc)
	rb := ratio(float64(c1.bytes), float64(c4.bytes))
	if rb > 6 {
		t.Errorf("allocated bytes grew x%.2f for x%d functions: not linear", rb, large/small)
	}
	if rm > 6 {
		t.Errorf("allocations grew x%.2f for x%d functions: not linear", rm, large/small)
	}
	if rc > 6 {
		cpuCheck(t, "CPU grew x%.2f for x%d functions: not linear", rc, large/small)
	}
}

// ssaOnly measures building SSA for pkg the way the engine does (the
// package and its direct imports), to separate x/tools' SSA construction
// from the engine's own work.
func ssaOnly(pkg *packages.Package) cost {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0, start := cpuTime(), time.Now()
	prog := ssa.NewProgram(pkg.Fset, ssa.InstantiateGenerics)
	for _, imp := range pkg.Types.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	prog.CreatePackage(pkg.Types, pkg.Syntax, pkg.TypesInfo, false).Build()
	c := cost{wall: time.Since(start), cpu: cpuTime() - cpu0}
	runtime.ReadMemStats(&m1)
	c.mallocs, c.bytes = m1.Mallocs-m0.Mallocs, m1.TotalAlloc-m0.TotalAlloc
	return c
}

// TestBudgetFunctionSize guards the per-function budgets (docs/design.md,
// Budgets): inside one function with a lease parameter, 3x the switch cases
// (3x the CFG blocks and writes) must cost the engine's own analysis (its
// run minus SSA construction) less than 6x; and a function over the
// 20,000-instruction budget is skipped (no writes) before its SSA is
// built (the engine's source-size budget). SSA construction itself (x/tools'
// lifting) grows faster than linearly with the size of one function; it is
// logged, and only guarded against an explosion.
func TestBudgetFunctionSize(t *testing.T) {
	if testing.Short() {
		t.Skip("generates giant functions")
	}
	giant := func(ops int) (eng, build cost) {
		pkgs := load(t, gen.Config{GiantOps: ops}, "./giant")
		eng = best(2, func() cost { return measureEngine(t, pkgs, pkgs[0].PkgPath) })
		build = best(2, func() cost { return ssaOnly(pkgs[0]) })
		return eng, build
	}
	own := func(eng, build cost) (uint64, time.Duration) {
		m := uint64(0)
		if eng.mallocs > build.mallocs {
			m = eng.mallocs - build.mallocs
		}
		return m, max(eng.cpu-build.cpu, time.Millisecond)
	}
	e1, b1 := giant(400)
	e3, b3 := giant(1200)
	m1, c1 := own(e1, b1)
	m3, c3 := own(e3, b3)
	t.Logf("one function, 400 writes: engine %v; SSA build %v; engine's own: %d mallocs, %v CPU", e1, b1, m1, c1)
	t.Logf("one function, 1200 writes: engine %v; SSA build %v; engine's own: %d mallocs, %v CPU", e3, b3, m3, c3)
	t.Logf("x3 function size: engine's own x%.2f mallocs, x%.2f CPU; SSA build x%.2f bytes, x%.2f CPU",
		float64(m3)/float64(m1), float64(c3)/float64(c1), float64(b3.bytes)/float64(b1.bytes), float64(b3.cpu)/float64(b1.cpu))
	if e1.writes == 0 || e3.writes == 0 {
		t.Fatalf("writes in budget-sized functions were not analysed (%d, %d)", e1.writes, e3.writes)
	}
	if r := float64(m3) / float64(m1); r > 6 {
		t.Errorf("the engine's own allocations grew x%.2f for x3 function size: not linear", r)
	}
	if r := float64(c3) / float64(c1); r > 6 && c3 > 100*time.Millisecond {
		cpuCheck(t, "the engine's own CPU grew x%.2f for x3 function size: not linear", r)
	}
	if r := float64(b3.bytes) / float64(b1.bytes); r > 12 {
		t.Errorf("SSA construction grew x%.2f in bytes for x3 function size", r)
	}
	over, overBuild := giant(5000) // about 60,000 SSA instructions
	t.Logf("one function, 5000 writes (over budget): engine %v; SSA build %v", over, overBuild)
	if over.writes != 0 {
		t.Errorf("a function over the instruction budget was analysed: %d writes", over.writes)
	}
	if over.cpu > 20*time.Second {
		t.Errorf("a function over budget took %v", over.cpu)
	}
	// The source budget (maxSourceBytes) skips it before SSA is built: the
	// engine must cost a small fraction of building its SSA.
	if over.bytes > overBuild.bytes/10 {
		t.Errorf("the engine allocated %d MB on a function over budget, building its SSA takes %d MB: SSA was built before the budget check",
			over.bytes>>20, overBuild.bytes>>20)
	}
}

// BenchmarkEngine measures the engine on one generated lock-heavy package.
// Profile it with:
//
//	go test ./bench -run '^$' -bench Engine/N=4000 -cpuprofile cpu.out -memprofile mem.out
func BenchmarkEngine(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			pkgs, target := svc(b, n)
			b.ResetTimer()
			var c cost
			for b.Loop() {
				c = measureEngine(b, pkgs, target)
			}
			b.ReportMetric(float64(c.mallocs)/float64(n), "mallocs/func")
			b.ReportMetric(float64(c.cpu.Microseconds())/float64(n), "cpu-µs/func")
		})
	}
}

// BenchmarkGiantFunction measures the engine on one function of ops writes
// (4000 is over the instruction budget: SSA is built, the function skipped).
func BenchmarkGiantFunction(b *testing.B) {
	for _, ops := range []int{400, 1200, 4000} {
		b.Run(fmt.Sprintf("ops=%d", ops), func(b *testing.B) {
			pkgs := load(b, gen.Config{GiantOps: ops}, "./giant")
			b.ResetTimer()
			var c cost
			for b.Loop() {
				c = measureEngine(b, pkgs, pkgs[0].PkgPath)
			}
			b.ReportMetric(float64(c.bytes)/float64(ops), "B/write")
		})
	}
}

// cpuCheck fails on CPU-time growth only when FENCELINT_BENCH_CPU=1: CPU
// time on a shared 2-core machine is too noisy for CI, where the
// allocation counts (deterministic) guard linearity.
func cpuCheck(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("FENCELINT_BENCH_CPU") == "1" {
		t.Errorf(format, args...)
		return
	}
	t.Logf("(CPU check not enforced; set FENCELINT_BENCH_CPU=1) "+format, args...)
}
