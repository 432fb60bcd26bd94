// Package fencemap turns the engine's models of a set of packages into the
// fence map: for every lock, where it is taken, what it is, what token it
// hands out, and every resource written under it with each write's
// verdict; the resources two locks (or a lock and no lock) both write; and
// the calls inside lock scopes that fencelint could not see into, each
// with the directive that would let it see.
//
// The map is a review artifact, so it is deterministic: positions are file
// paths relative to a root directory, and every list is sorted, so that
// two runs over the same code (at any -p, in any order) are byte-identical
// and a change to the code shows up as a small diff. Rendering lives in
// render.go (json, md, dot, mermaid).
package fencemap

import (
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
)

// SchemaVersion is the version of the JSON schema (docs/fencemap.md). It
// changes only when a field changes meaning or disappears; new fields may
// be added within a version.
const SchemaVersion = 1

// Map is the fence map of a set of packages.
type Map struct {
	Version int `json:"version"`
	// Locks are sorted by ID.
	Locks []*Lock `json:"locks"`
	// Shared lists the resources written under more than one lock, or
	// under a lock in one place and outside any lock in another.
	Shared []*Shared `json:"shared"`
	// BlindSpots are the calls inside lock scopes that fencelint could not
	// judge, most scopes first.
	BlindSpots []*BlindSpot `json:"blind_spots"`
	// Errors are the functions the engine gave up on (a panic it
	// contained): what it could not judge, it says.
	Errors []string `json:"errors,omitempty"`
}

// Site is a source position, relative to the map's root directory.
type Site struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func (s Site) String() string {
	return s.File + ":" + itoa(s.Line) + ":" + itoa(s.Col)
}

func (s Site) less(t Site) bool {
	if s.File != t.File {
		return s.File < t.File
	}
	if s.Line != t.Line {
		return s.Line < t.Line
	}
	return s.Col < t.Col
}

// Lock is one lock, lease or token scope kind as the engine saw it.
type Lock struct {
	// ID is stable across runs: the lock's name, and its key when the key
	// is a constant or has a constant prefix; otherwise its first acquire
	// site.
	ID string `json:"id"`
	// Name is the engine's name for the lock: "etcd mutex", "lease Lease
	// from Acquire", "redsync mutex".
	Name string `json:"name"`
	// Key is the lock's key where known ("/locks/account/*").
	Key string `json:"key,omitempty"`
	// Kind says how its scopes open: "acquire", "lease parameter",
	// "token parameter", "callback", "leader election".
	Kind string `json:"kind"`
	// Source says what made it a lock: "library etcd", "directive
	// //fencelint:acquire", "heuristic: lease-shaped type Lease", "fact:
	// acquire wrapper".
	Source string `json:"source,omitempty"`
	// Token is the fencing token the lock hands out ("m.Header().Revision"),
	// empty when it hands out none.
	Token string `json:"token,omitempty"`
	// TokenKind is "monotonic", "weak" (not strictly increasing across
	// grants: TokenWhy says why) or "none".
	TokenKind string `json:"token_kind"`
	TokenWhy  string `json:"token_why,omitempty"`
	// Acquires are where its scopes open, sorted.
	Acquires []Site `json:"acquires"`
	// Resources are the resources written under it, sorted by kind, name.
	Resources []*Resource `json:"resources"`
}

// Resource is one storage resource and the writes to it under one lock.
type Resource struct {
	// Kind is the resource's kind: "SQL table", "DynamoDB table", "S3
	// object", "etcd key", "Redis key", "ZooKeeper path", ...
	Kind string `json:"kind"`
	// Name is the table, key, object or path ("account_balances",
	// "/config/*"); "?" when the engine could not read it.
	Name string `json:"name"`
	// Verdict summarises the writes: the worst of theirs.
	Verdict string   `json:"verdict"`
	Writes  []*Write `json:"writes"`
}

// Write is one write site of a resource.
type Write struct {
	Site
	// Call is the call as written ("pool.Exec").
	Call string `json:"call"`
	// Helper names the function that writes when the call is to a write
	// helper.
	Helper string `json:"helper,omitempty"`
	// Verdict is one of Verdicts.
	Verdict string `json:"verdict"`
}

// Verdicts are the values of Write.Verdict and Resource.Verdict, best
// first; a resource's verdict is the last of its writes' in this order.
// "session" is a SQL write run on the transaction or connection that
// holds the lock (a PostgreSQL advisory or MySQL named lock): protected by
// that session, as a fenced write is by its token.
var Verdicts = []string{"fenced", "session", "unknown", "weak", "wrong-predicate", "app-checked", "unfenced"}

func verdictOf(v fence.Verdict) string {
	switch v {
	case fence.Fenced:
		return "fenced"
	case fence.Unfenced, fence.RecordedOnly:
		return "unfenced"
	case fence.WrongPredicate:
		return "wrong-predicate"
	case fence.WeakToken:
		return "weak"
	case fence.AppChecked:
		return "app-checked"
	}
	return "unknown"
}

func verdictRank(v string) int {
	for i, w := range Verdicts {
		if w == v {
			return i
		}
	}
	return 0
}

// Shared is a resource written by more than one lock, or also outside any
// lock: two holders that do not exclude each other write one resource.
type Shared struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Locks are the IDs of the locks it is written under, sorted.
	Locks []string `json:"locks"`
	// Unlocked are write sites outside any lock scope, sorted.
	Unlocked []Site `json:"unlocked,omitempty"`
}

// BlindSpot is a call inside lock scopes that fencelint could not judge.
type BlindSpot struct {
	Site
	// Call is the call as written.
	Call string `json:"call"`
	// Callee names the function, method or value called.
	Callee string `json:"callee"`
	// Kind is "interface" (no visible implementation, or they disagree),
	// "unknown-library" (a function fencelint has no rules or facts for
	// that takes the token or a context and returns an error), "dynamic"
	// (SQL or an expression that is not a constant), "func-value", or
	// "lock-call" (a call, in a scope or not, through an interface some of
	// whose implementations take a lock and others do not: no scope
	// opens there).
	Kind string `json:"kind"`
	// Why says in one clause what fencelint could not see.
	Why string `json:"why"`
	// Directive is the exact directive that would teach fencelint, and
	// DirectiveAt where it goes ("" when no directive helps, as for
	// dynamic SQL).
	Directive   string `json:"directive,omitempty"`
	DirectiveAt string `json:"directive_at,omitempty"`
	// Scopes counts the lock scopes this callee is called in; the list is
	// ranked by it.
	Scopes int `json:"scopes"`
	// Locks are the IDs of those scopes' locks, sorted.
	Locks []string `json:"locks"`
}

// Package is one package's engine result, as a driver hands it over.
type Package struct {
	Path  string
	Fset  *token.FileSet
	Model *fence.Model
}

// Build makes the map of pkgs, with file names relative to root.
func Build(root string, pkgs []Package) *Map {
	b := &builder{root: root, locks: map[string]*Lock{}, scopeIDs: map[*fence.Scope]string{}}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	for _, p := range pkgs {
		if p.Model == nil || !p.Model.Relevant {
			continue
		}
		b.add(p)
	}
	return b.finish()
}

type builder struct {
	root     string
	locks    map[string]*Lock
	scopeIDs map[*fence.Scope]string
	unlocked map[string][]Site // resource key -> writes outside any scope
	blind    map[string]*BlindSpot
	blindIDs map[string]map[string]bool
	errors   []string
	// weakLeases: lease lock IDs whose token field is set from a weak
	// value, with why.
	weakLeases map[string]string
}

func (b *builder) site(fset *token.FileSet, pos token.Pos) Site {
	p := fset.Position(pos)
	file := p.Filename
	if rel, err := filepath.Rel(b.root, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	}
	return Site{File: filepath.ToSlash(file), Line: p.Line, Col: p.Column}
}

func (b *builder) add(p Package) {
	for _, w := range p.Model.Writes {
		if w.Scope == nil || w.HelperScope {
			continue // a helper that is its own scope lists its writes itself
		}
		l := b.lockOf(p.Fset, w.Scope)
		for _, c := range w.Compares {
			if c.Weak && l.TokenKind != "none" {
				// The token compared is not monotonic: the lock's token,
				// as used, is weak.
				l.TokenKind, l.TokenWhy = "weak", c.Why
				if l.Token == "" {
					l.Token = c.Token
				}
			}
		}
		for _, res := range resourcesOf(w) {
			r := l.resource(res[0], res[1])
			r.Writes = append(r.Writes, &Write{Site: b.site(p.Fset, w.Pos), Call: w.Call, Helper: w.Helper, Verdict: verdictOf(w.Verdict)})
		}
	}
	for _, w := range p.Model.Protected {
		l := b.lockOf(p.Fset, w.Scope)
		r := l.resource(resourceKind(w.Store), targetName(w.Target))
		r.Writes = append(r.Writes, &Write{Site: b.site(p.Fset, w.Pos), Call: w.Call, Verdict: "session"})
	}
	for _, u := range p.Model.Unscoped {
		if b.unlocked == nil {
			b.unlocked = map[string][]Site{}
		}
		kind, name := resourceKind(u.Store), targetName(u.Target)
		k := kind + "\x00" + name
		b.unlocked[k] = append(b.unlocked[k], b.site(p.Fset, u.Pos))
	}
	for _, bs := range p.Model.Blind {
		b.addBlind(p, bs)
	}
	for _, d := range p.Model.Defects {
		// A lease whose token field is filled from a weak value (the
		// clock, a random number): every scope on that lease type has a
		// weak token, whatever its writes compare.
		if d.Kind != fence.DefectWeakToken || d.Weak == nil {
			continue
		}
		if name, ok := strings.CutPrefix(d.Detail, "the token of lease "); ok {
			if b.weakLeases == nil {
				b.weakLeases = map[string]string{}
			}
			b.weakLeases["lease-shaped type "+name] = d.Weak.Why
		}
	}
	for _, in := range p.Model.Internal {
		msg, _, _ := strings.Cut(in.Msg, "\n")
		b.errors = append(b.errors, b.site(p.Fset, in.Pos).String()+": "+in.Func+": "+msg)
	}
}

func (b *builder) addBlind(p Package, bs fence.BlindCall) {
	if b.blind == nil {
		b.blind = map[string]*BlindSpot{}
		b.blindIDs = map[string]map[string]bool{}
	}
	site := b.site(p.Fset, bs.Pos)
	// One spot per callee: the directive goes on its declaration once,
	// and opens every scope that calls it. Dynamic SQL has no callee to
	// teach: one spot per call.
	key := bs.Kind + "\x00" + bs.Callee
	if bs.Kind == fence.BlindDynamic || bs.Callee == "" {
		key += "\x00" + site.String()
	}
	spot := b.blind[key]
	if spot == nil {
		spot = &BlindSpot{Site: site, Call: bs.Call, Callee: bs.Callee, Kind: bs.Kind, Why: bs.Why, Directive: bs.Directive}
		if bs.DirectiveAt.IsValid() {
			spot.DirectiveAt = b.site(p.Fset, bs.DirectiveAt).String()
		} else if bs.DirectiveAtName != "" {
			spot.DirectiveAt = bs.DirectiveAtName
		}
		b.blind[key] = spot
		b.blindIDs[key] = map[string]bool{}
	} else if site.less(spot.Site) {
		spot.Site, spot.Call = site, bs.Call
	}
	if bs.Scope != nil {
		id := b.lockOf(p.Fset, bs.Scope).ID
		scopeKey := id + "\x00" + b.site(p.Fset, bs.Scope.Pos).String()
		if !b.blindIDs[key][scopeKey] {
			b.blindIDs[key][scopeKey] = true
			spot.Scopes++
		}
		if !contains(spot.Locks, id) {
			spot.Locks = append(spot.Locks, id)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lockOf returns the lock a scope belongs to, creating it on first use.
func (b *builder) lockOf(fset *token.FileSet, s *fence.Scope) *Lock {
	if id, ok := b.scopeIDs[s]; ok {
		l := b.locks[id]
		return l
	}
	acq := b.site(fset, s.Pos)
	id, name := s.Lock, s.Lock
	switch {
	case s.Key != "":
		id += " " + s.Key
	case s.Kind == fence.ScopeLeaseParam && s.Source != "":
		// Every function taking the same lease or lock type runs under
		// one lock, whatever its parameter is called.
		id, name = s.Source, s.Source
	default:
		id += " @" + acq.String()
	}
	l := b.locks[id]
	if l == nil {
		l = &Lock{ID: id, Name: name, Key: s.Key, Kind: scopeKind(s.Kind), Source: s.Source}
		switch {
		case s.NoToken:
			l.TokenKind = "none"
		case s.Token != "":
			l.Token, l.TokenKind = s.Token, "monotonic"
		default:
			l.TokenKind = "unknown"
		}
		b.locks[id] = l
	}
	if !siteIn(l.Acquires, acq) {
		l.Acquires = append(l.Acquires, acq)
	}
	b.scopeIDs[s] = id
	return l
}

func siteIn(list []Site, s Site) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func scopeKind(k fence.ScopeKind) string {
	switch k {
	case fence.ScopeAcquire:
		return "acquire"
	case fence.ScopeLeaseParam:
		return "lease parameter"
	case fence.ScopeTokenParam:
		return "token parameter"
	case fence.ScopeCallback:
		return "callback"
	case fence.ScopeLeading:
		return "leader election"
	case fence.ScopeHeld:
		return "held by the caller"
	case fence.ScopeLeaderCheck:
		return "leadership check"
	}
	return "scope"
}

// resourcesOf names what w writes: its target, or for a call of a write
// helper every resource the helper writes (from its summary).
func resourcesOf(w *fence.Write) [][2]string {
	if w.Helper != "" {
		if len(w.Resources) == 0 {
			// A //fencelint:write helper: storage fencelint cannot name.
			return [][2]string{{"storage", "written by " + w.Helper}}
		}
		out := make([][2]string, 0, len(w.Resources))
		for _, r := range w.Resources {
			store, target, _ := strings.Cut(r, "\t")
			out = append(out, [2]string{resourceKind(store), targetName(target)})
		}
		return out
	}
	target := w.Target
	if target == "" {
		target = w.KeyPattern
	}
	return [][2]string{{resourceKind(w.Store), targetName(target)}}
}

func (l *Lock) resource(kind, name string) *Resource {
	for _, r := range l.Resources {
		if r.Kind == kind && r.Name == name {
			return r
		}
	}
	r := &Resource{Kind: kind, Name: name}
	l.Resources = append(l.Resources, r)
	return r
}

// resourceKind names the kind of resource a store's writes address.
func resourceKind(store string) string {
	switch store {
	case "SQL", "gorm":
		return "SQL table"
	case "DynamoDB":
		return "DynamoDB table"
	case "S3":
		return "S3 object"
	case "GCS":
		return "GCS object"
	case "Azure Blob":
		return "Azure blob"
	case "etcd":
		return "etcd key"
	case "Redis":
		return "Redis key"
	case "ZooKeeper":
		return "ZooKeeper path"
	case "consul", "consul KV":
		return "consul key"
	case "MongoDB":
		return "Mongo collection"
	case "CQL", "Cassandra":
		return "CQL table"
	case "", "storage":
		return "storage"
	}
	return store
}

func targetName(t string) string {
	if t == "" {
		return "?"
	}
	return t
}

func (b *builder) finish() *Map {
	m := &Map{Version: SchemaVersion, Locks: []*Lock{}, Shared: []*Shared{}, BlindSpots: []*BlindSpot{}}
	// resource -> lock IDs, for Shared.
	under := map[string]map[string]bool{}
	for _, l := range b.locks {
		if why, ok := b.weakLeases[l.ID]; ok && l.TokenKind != "none" {
			l.TokenKind, l.TokenWhy = "weak", why
		}
		sort.Slice(l.Acquires, func(i, j int) bool { return l.Acquires[i].less(l.Acquires[j]) })
		sort.Slice(l.Resources, func(i, j int) bool {
			a, c := l.Resources[i], l.Resources[j]
			if a.Kind != c.Kind {
				return a.Kind < c.Kind
			}
			return a.Name < c.Name
		})
		for _, r := range l.Resources {
			sort.Slice(r.Writes, func(i, j int) bool { return r.Writes[i].Site.less(r.Writes[j].Site) })
			r.Verdict = Verdicts[0]
			for _, w := range r.Writes {
				if verdictRank(w.Verdict) > verdictRank(r.Verdict) {
					r.Verdict = w.Verdict
				}
			}
			k := r.Kind + "\x00" + r.Name
			if under[k] == nil {
				under[k] = map[string]bool{}
			}
			under[k][l.ID] = true
		}
		m.Locks = append(m.Locks, l)
	}
	sort.Slice(m.Locks, func(i, j int) bool { return m.Locks[i].ID < m.Locks[j].ID })

	for k, ids := range under {
		unlocked := b.unlocked[k]
		if len(ids) < 2 && len(unlocked) == 0 {
			continue
		}
		if strings.HasSuffix(k, "\x00?") {
			continue // an unreadable name says nothing about sharing
		}
		kind, name, _ := strings.Cut(k, "\x00")
		s := &Shared{Kind: kind, Name: name}
		for id := range ids {
			s.Locks = append(s.Locks, id)
		}
		sort.Strings(s.Locks)
		s.Unlocked = append(s.Unlocked, unlocked...)
		sort.Slice(s.Unlocked, func(i, j int) bool { return s.Unlocked[i].less(s.Unlocked[j]) })
		m.Shared = append(m.Shared, s)
	}
	sort.Slice(m.Shared, func(i, j int) bool {
		if m.Shared[i].Kind != m.Shared[j].Kind {
			return m.Shared[i].Kind < m.Shared[j].Kind
		}
		return m.Shared[i].Name < m.Shared[j].Name
	})

	for _, s := range b.blind {
		sort.Strings(s.Locks)
		m.BlindSpots = append(m.BlindSpots, s)
	}
	sort.Strings(b.errors)
	m.Errors = b.errors
	sort.Slice(m.BlindSpots, func(i, j int) bool {
		a, c := m.BlindSpots[i], m.BlindSpots[j]
		if a.Scopes != c.Scopes {
			return a.Scopes > c.Scopes
		}
		if a.Site != c.Site {
			return a.Site.less(c.Site)
		}
		return a.Callee < c.Callee
	})
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }
