// Package lazyregexp is a regexp.Regexp compiled on first use.
//
// fencelint runs once per package under go vet: go vet starts the tool
// for every unit, and for most units (std, dependencies that use no lock
// or storage API) the tool answers from the import lists alone, without
// running a single pattern. Compiling the engine's ~30 patterns in package
// initialisers cost each of those processes more than a millisecond; this
// type defers the cost to the first unit that needs it.
//
// The standard library has the same type (internal/lazyregexp, used by the
// go command) but it is internal to the Go tree; this one forwards only the
// methods fencelint calls.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled from its pattern on first use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

func (r *Regexp) re() *regexp.Regexp {
	r.once.Do(r.build)
	return r.rx
}

func (r *Regexp) build() {
	r.rx = regexp.MustCompile(r.str)
	r.str = ""
}

// inTest is set in test binaries, where every pattern is compiled when it
// is declared: a bad pattern then fails the package's tests at start-up
// instead of panicking at the first input that reaches it.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// New returns a Regexp for str, compiled on first use (at once in tests).
// Like regexp.MustCompile, a bad pattern panics.
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.re()
	}
	return r
}

// String returns the source text of the pattern.
func (r *Regexp) String() string { return r.re().String() }

// MatchString reports whether s contains a match of r.
func (r *Regexp) MatchString(s string) bool { return r.re().MatchString(s) }

// FindString is regexp.Regexp.FindString.
func (r *Regexp) FindString(s string) string { return r.re().FindString(s) }

// FindStringIndex is regexp.Regexp.FindStringIndex.
func (r *Regexp) FindStringIndex(s string) []int { return r.re().FindStringIndex(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }

// FindAllString is regexp.Regexp.FindAllString.
func (r *Regexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }

// FindAllStringSubmatch is regexp.Regexp.FindAllStringSubmatch.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
