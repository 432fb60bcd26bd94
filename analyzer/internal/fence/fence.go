package fence

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"runtime/debug"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer is the shared engine. It reports nothing; analyzers read its
// *Model from pass.ResultOf. It is the only fencelint pass with facts.
var Analyzer = &analysis.Analyzer{
	Name:       "fencelint_fence",
	Doc:        "shared engine of fencelint: lock scopes, token flow, write conditions and facts",
	Run:        run,
	ResultType: reflect.TypeOf((*Model)(nil)),
	FactTypes:  []analysis.Fact{new(FuncFact), new(TokenFieldFact), new(PackageFact), new(LeaseTypeFact), new(ImplsFact), new(CallbackFieldFact)},
}

// allFuncs turns the per-function filter off (see selectDecls): an escape
// hatch for users, and what tests compare the filter against.
var allFuncs bool

func init() {
	Analyzer.Flags.BoolVar(&allFuncs, "allfuncs", false,
		"build SSA for every function of a relevant package, not only those that touch a lock, lease, token or storage API (slower; for comparison)")
}

// Budgets keep the engine linear in the size of the code: a function with
// more SSA instructions than maxInstrs is skipped (it is generated or
// table-like code, not a lock holder), and value tracing stops at maxDepth.
const (
	maxInstrs = 20000
	maxDepth  = 24
)

func run(pass *analysis.Pass) (res any, err error) {
	model := &Model{}
	if !relevant(pass) {
		if rules.IsLibraryPackage(pass.Pkg.Path()) && directive.HasAny(pass.Files) {
			model.DirectiveProblems = skippedPackageDirectives(pass.Files, pass.Pkg.Path())
		}
		exportNoReturns(pass) // a log.Fatal wrapper here ends paths in the packages that are relevant
		reexportImpls(pass)   // implementations below stay visible to importers above (impls.go)
		return model, nil     // fast path: no lock API, lease type, directive or fact in reach
	}
	model.Relevant = true
	model.Ignores = directive.ParseIgnores(pass.Fset, pass.Files)
	e := newEngine(pass, model)
	e.collectDirectives()
	e.noret = newNoReturns(pass)
	if !e.buildSSA() {
		return model, nil
	}
	e.analyze()
	e.condDefects()   // the condition defects first: verdicts are final after it
	e.judgeOutcomes() // then the outcomes of the writes that are fenced
	e.guardStep("lease-table claims", e.claimOutcomes)
	e.exportSummaries()
	e.tokenParamFacts()
	e.exportFacts()
	for _, f := range e.funcs {
		if f.Parent() == nil {
			model.SSAFuncs = append(model.SSAFuncs, f.Name())
		}
	}
	fset := pass.Fset
	sortByPosition(fset, model.Writes, func(w *Write) token.Pos { return w.Pos })
	// The defect passes read the finished model; a panic in one costs its
	// findings only (an Internal record), never the engine's result.
	e.guardStep("weak tokens", e.weakDefects)
	e.guardStep("optional tokens", e.optionalDefects) // marks Omitted writes first
	e.guardStep("app checks", e.appCheckDefects)
	sortDefects(fset, model.Defects)
	return model, nil
}

// relevant is the fast path: the engine's answer to Relevance, from the
// type-checked package.
func relevant(pass *analysis.Pass) bool {
	imports := make([]string, len(pass.Pkg.Imports()))
	byPath := make(map[string]*types.Package, len(imports))
	for i, imp := range pass.Pkg.Imports() {
		imports[i] = imp.Path()
		byPath[imp.Path()] = imp
	}
	return Relevance{
		Path:    pass.Pkg.Path(),
		Imports: imports,
		HasFact: func(path string) bool {
			return pass.ImportPackageFact(byPath[path], new(PackageFact))
		},
		HasDirective:  func() bool { return directive.HasAny(pass.Files) },
		DeclaresLease: func() bool { return declaresLease(pass.Pkg) },
	}.Relevant()
}

func declaresLease(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			if _, ok := rules.LeaseOf(tn.Type()); ok {
				return true
			}
		}
	}
	return false
}

// engine holds the per-package state of one run.
type engine struct {
	pass  *analysis.Pass
	model *Model

	noted map[token.Pos]bool // calls noteUnresolvedAcquire recorded

	// funcDecls maps the package's functions to their declarations, built on
	// first use (funcDecl).
	funcDecls map[*types.Func]*ast.FuncDecl

	prog  *ssa.Program
	pkg   *ssa.Package
	funcs []*ssa.Function

	// AST lookups by position: SSA positions point into these nodes.
	calls  posIndex[*ast.CallExpr] // by Lparen
	sels   posIndex[*ast.SelectorExpr]
	binops posIndex[*ast.BinaryExpr] // by OpPos

	// local knowledge, later exported as facts
	local       map[*types.Func]*FuncFact
	imported    map[*types.Func]*FuncFact // facts of other packages' functions, nil if none
	tokenFields map[*types.Var]bool
	// callbackFields are this package's func fields whose value is
	// registered as a lock callback (CallbackFieldFact).
	callbackFields map[*types.Var]*CallbackFieldFact

	// scopes of whole function bodies (lease/token parameters, callbacks,
	// closures started in a scope), and of instructions after acquires
	bodyScope  map[*ssa.Function]*Scope
	instrScope map[ssa.Instruction]*Scope
	// tokenParams marks parameters that carry the token (token-named
	// parameters, the lease handed to a callback).
	tokenParams map[*ssa.Parameter]string
	// closures maps an anonymous function to the MakeClosure instructions
	// that create it, to follow free variables to their bindings.
	closures map[*ssa.Function][]*ssa.MakeClosure
	// regions remembers acquire regions per function for facts.
	regions map[*ssa.Function][]*region

	summaries map[*ssa.Function]*FuncFact
	inSummary map[*ssa.Function]bool

	memo map[ssa.Value]*origin

	gocronDistributed *bool // computed once, on the first gocron.NewTask
	sql               *sqlCache
	fixedStrings      map[*types.Var]string               // unexported package-level strings never changed (globalsql.go)
	tokenCheckMemo    map[*ssa.Function][]tokenCheck      // read-then-compare branches per function (guard.go)
	lockedRows        map[ssa.Value]bool                  // gorm roots that took row locks (lockedRowsOn)
	lockKeyFields     map[*types.Var]bool                 // fields holding an etcd lock key (isLockKeyField)
	condWrites        []condWrite                         // every judged write, for condDefects
	ifaceFacts        map[*types.Func]*FuncFact           // interface methods resolved over imported implementations
	ifaceImpls        map[*types.Func][]*types.Func       // their implementations (implementations)
	mirrors           map[*types.Func]*mirror             // application interface methods that mirror a store (mirror.go)
	factImpls         []ImplType                          // other packages' implementation types, from ImplsFacts (impls.go)
	wrappers          int                                 // acquire wrappers and with-lock helpers inferred so far
	heldAtReturn      map[*ssa.Function]acquireInfo       // function literals that return with a lock held (retry.go)
	runnerReleases    map[*ssa.Function]bool              // functions of this package a retry runner runs: do they release a lock (retry.go)
	regionsFound      bool                                // step 2 of analyze is done: summaries may be made
	releasingParams   map[*ssa.Function]paramScope        // lock-parameter functions that release it themselves
	directed          map[*types.Func]bool                // functions and interface methods carrying a //fencelint: directive
	releases          int                                 // release wrappers inferred so far (inferRelease's passes)
	wrapperSessions   map[*types.Func]string              // this package's acquire wrappers that lock a receiver field's session
	sessions          map[*Scope]string                   // the session (sessionKey) holding an advisory-lock scope
	sites             map[*Write]writeSite                // where each write is in SSA (outcome.go)
	noret             *noReturns                          // calls that cannot return (noreturn.go)
	decl              *declared                           // declared leases, holds, token parameters, func values (declared.go)
	forwards          map[*ssa.Function][]Forward         // writes whose statement is a parameter (forward.go)
	retTokens         map[*ssa.Function]*origin           // functions of this package returning a token (returnedToken)
	recvTokens        map[*types.Var]*origin              // receiver fields a lock-holding method stores a token in (recvlock.go), and fields only ever set to tokens (tokenaccessor.go): where the value came from, weak or not
	claimedTables     map[string]bool                     // SQL tables some statement of the package claims rows of (leasetable.go)
	leaseStmts        map[string]leaseStmt                // SQL text -> its lease-table reading, once claimedTables is known (leasetable.go)
	callsOf           map[*ssa.Function][]ssa.Instruction // each function's calls, gos and defers (callSites)

	// weak tokens (weak.go)
	writeInstr map[*Write]ssa.Instruction // the call instruction of each Write
	weakAt     map[token.Pos]*origin      // weak rules/ origins by position
	weakOut    []weakWrite                // out-of-scope writes judged WeakToken
	weakSeen   map[token.Pos]bool         // their calls, once each
	writeWeak  map[*Write]*weakSource     // the weak value taken for a directive's or helper's token
	// fenceCompared are the "table.column" fence columns some SQL write's
	// condition compares with a value; weakRecords the application-minted
	// weak values SQL writes store in a column (noteFenceColumns).
	fenceCompared map[string]bool
	weakRecords   []weakRecord

	// optional tokens (optdefects.go): every write's eval by its '('
	callEvals map[token.Pos]notedCall
	published map[*types.Func]*FuncFact // local and called imported facts (publish)
}

func newEngine(pass *analysis.Pass, model *Model) *engine {
	return &engine{
		pass:           pass,
		model:          model,
		local:          map[*types.Func]*FuncFact{},
		imported:       map[*types.Func]*FuncFact{},
		tokenFields:    map[*types.Var]bool{},
		callbackFields: map[*types.Var]*CallbackFieldFact{},
		bodyScope:      map[*ssa.Function]*Scope{},
		instrScope:     map[ssa.Instruction]*Scope{},
		tokenParams:    map[*ssa.Parameter]string{},
		closures:       map[*ssa.Function][]*ssa.MakeClosure{},
		regions:        map[*ssa.Function][]*region{},
		summaries:      map[*ssa.Function]*FuncFact{},
		inSummary:      map[*ssa.Function]bool{},
		memo:           map[ssa.Value]*origin{},
		sql:            &sqlCache{},
		sites:          map[*Write]writeSite{},
		writeInstr:     map[*Write]ssa.Instruction{},
	}
}

// buildSSA builds SSA for the package the way buildssa does, but only for
// relevant packages (buildssa as a prerequisite would run on every package
// of a go vet run, std included).
func (e *engine) buildSSA() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			e.model.Internal = append(e.model.Internal, Internal{
				Pos: e.pass.Files[0].Package, Func: e.pass.Pkg.Path(),
				Msg: fmt.Sprintf("building SSA: %v", r),
			})
			ok = false
		}
	}()
	e.prog = ssa.NewProgram(e.pass.Fset, ssa.InstantiateGenerics)
	if e.noret != nil {
		e.prog.SetNoReturn(e.noret.is) // a call that cannot return ends its block
	}
	for _, p := range e.pass.Pkg.Imports() {
		e.prog.CreatePackage(p, nil, nil, true)
	}
	files, skipped := e.selectDecls()
	e.model.SkippedFuncs = skipped
	e.pkg = e.prog.CreatePackage(e.pass.Pkg, files, e.pass.TypesInfo, false)
	e.pkg.Build()

	// Index the syntax SSA positions point into; bodies selectDecls removed
	// are not walked.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				e.calls.add(n.Lparen, n)
			case *ast.SelectorExpr:
				e.sels.add(n.Sel.Pos(), n)
			case *ast.BinaryExpr:
				e.binops.add(n.OpPos, n)
			}
			return true
		})
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := e.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if f := e.prog.FuncValue(fn); f != nil {
				e.addFunc(f)
			}
		}
	}
	e.calls.seal()
	e.sels.seal()
	e.binops.seal()
	return true
}

// funcDecl is the declaration of fn, a function of the package; nil for
// any other.
func (e *engine) funcDecl(fn *types.Func) *ast.FuncDecl {
	if e.funcDecls == nil {
		e.funcDecls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range e.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := e.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						e.funcDecls[obj] = fd
					}
				}
			}
		}
	}
	return e.funcDecls[fn]
}

func (e *engine) addFunc(f *ssa.Function) {
	if !hasBody(f) {
		return // no SSA built: see selectDecls
	}
	e.funcs = append(e.funcs, f)
	for _, anon := range f.AnonFuncs {
		e.addFunc(anon)
	}
}

// testHook, set only by this package's tests, runs before each guarded
// step so a test can make the engine panic on a chosen function.
var testHook func(*ssa.Function)

// guard runs fn for one SSA function and turns a panic into an Internal
// record naming it, so one odd function never breaks a whole vet run.
func (e *engine) guard(f *ssa.Function, fn func()) {
	if testHook != nil {
		defer func() {
			if r := recover(); r != nil {
				e.model.Internal = append(e.model.Internal, Internal{Pos: f.Pos(), Func: f.String(), Msg: fmt.Sprint(r)})
			}
		}()
		testHook(f)
	}
	defer func() {
		if r := recover(); r != nil {
			e.model.Internal = append(e.model.Internal, Internal{
				Pos: f.Pos(), Func: f.String(),
				Msg: fmt.Sprintf("%v\n%s", r, firstLines(string(debug.Stack()), 12)),
			})
		}
	}()
	fn()
}

// guardStep runs a package-wide step like guard runs a per-function one.
func (e *engine) guardStep(name string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			pos := token.NoPos
			if len(e.pass.Files) > 0 {
				pos = e.pass.Files[0].Package
			}
			e.model.Internal = append(e.model.Internal, Internal{
				Pos: pos, Func: e.pass.Pkg.Path() + " (" + name + ")",
				Msg: fmt.Sprintf("%v\n%s", r, firstLines(string(debug.Stack()), 12)),
			})
		}
	}()
	fn()
}

func firstLines(s string, n int) string {
	for i, c := 0, 0; i < len(s); i++ {
		if s[i] == '\n' {
			c++
			if c == n {
				return s[:i]
			}
		}
	}
	return s
}

func (e *engine) analyze() {
	// 0. Release wrappers (func (l *Locker) Unlock() { m.Unlock(ctx) }),
	// so that a region opened by an acquire wrapper ends at them. A
	// wrapper of a wrapper declared after it (Unlock running
	// releaseAdvisoryLock through a runner) needs another pass; passes
	// stop when one finds no new release.
	for round := 0; round < 3; round++ {
		before := e.releases
		e.runnerReleases = nil // a literal's "no release" may change now
		for _, f := range e.funcs {
			e.guard(f, func() { e.inferRelease(f) })
		}
		if e.releases == before {
			break
		}
	}
	// 1. Closure bindings, and bodies that are scopes by signature.
	for _, f := range e.funcs {
		e.guard(f, func() { e.indexClosures(f) })
	}
	for _, f := range e.funcs {
		e.guard(f, func() { e.signatureScope(f) })
	}
	// 2. Acquire regions and callback registrations. Finding them also
	// infers this package's acquire wrappers and with-lock helpers; a
	// caller scanned before such a helper (declared later, or in a later
	// file) missed it, so scan again from the same start until no new
	// helper appears (a chain of helpers needs one more round per link).
	base := maps.Clone(e.bodyScope)
	for round := 0; round < 4; round++ {
		before := e.wrappers
		for _, f := range e.funcs {
			if tooBig(f) {
				continue
			}
			e.guard(f, func() { e.findRegions(f) })
		}
		if e.wrappers == before || round == 3 {
			break
		}
		e.bodyScope = maps.Clone(base)
		e.instrScope = map[ssa.Instruction]*Scope{}
		e.regions = map[*ssa.Function][]*region{}
		e.memo = map[ssa.Value]*origin{}
	}
	e.regionsFound = true
	// 2b. Types that keep a lock in their receiver run their other
	// methods under it (recvlock.go).
	e.guardStep("receiver locks", e.receiverScopes)
	// 2c. Fields only ever set to a token and methods that return one
	// (tokenaccessor.go): reads and calls of them are token origins.
	e.guardStep("token accessors", e.inferTokenAccessors)
	// 3. Closures and goroutines started inside a scope inherit it. Anon
	// functions follow their parents in e.funcs, so one pass suffices for
	// nesting; a second catches named callbacks registered later.
	for range 2 {
		for _, f := range e.funcs {
			e.guard(f, func() { e.propagateClosures(f) })
		}
	}
	// 4. Writes in scopes get verdicts.
	for _, f := range e.funcs {
		if tooBig(f) {
			continue
		}
		e.guard(f, func() { e.checkWrites(f) })
	}
}

func tooBig(f *ssa.Function) bool {
	n := 0
	for _, b := range f.Blocks {
		n += len(b.Instrs)
	}
	return n > maxInstrs
}
