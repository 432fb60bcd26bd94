// Package lintutil declares fencelint analyzers the way staticcheck declares
// its checks: a go/analysis Analyzer plus structured documentation.
package lintutil

import "honnef.co/go/tools/analysis/lint"

// ReadmeURL is where every analyzer's documentation lives; each analyzer's
// URL points at its own page under docs/.
const ReadmeURL = "https://github.com/fencelint/fencelint/blob/main/docs/"

// Init compiles a's documentation (lint.InitializeAnalyzer, which also adds
// the tokenfile analyzer that staticcheck's report helpers need) and then
// replaces the staticcheck.dev URL it sets with fencelint's own page.
func Init(a *lint.Analyzer) *lint.Analyzer {
	lint.InitializeAnalyzer(a)
	a.Analyzer.URL = ReadmeURL + a.Analyzer.Name + ".md"
	return a
}

// NoTokenURL is the section of docs/unfencedwrite.md on locks that hand out
// no fencing token (redsync, redislock, Redis SET NX, consul, ZooKeeper's
// zk.Lock, gocron, leader election, advisory locks) and how to get one.
const NoTokenURL = ReadmeURL + "unfencedwrite.md#no-token"

// DirectivesURL documents every //fencelint: directive.
const DirectivesURL = ReadmeURL + "directives.md"

// IgnoreURL documents //fencelint:ignore, for the findings about ignore
// directives themselves.
const IgnoreURL = ReadmeURL + "directives.md#ignore"

// NoTokenFix says what to do, in one clause, when a write sits under a lock
// that hands out no fencing token. Messages append "; see " + NoTokenURL.
const NoTokenFix = "mint a counter in the same atomic step as the grant " +
	"(a Lua script that takes the lock and INCRs a counter, or a lock service " +
	"with a revision or zxid: etcd, ZooKeeper) and compare it in the write"

// WithheldTokenFix says what to do when a with-lock helper's lock has a
// token that the helper does not pass to the callback it runs.
const WithheldTokenFix = "pass the token to the callback (a parameter of the function it runs) and compare it in the write"

// Names are the contract names of fencelint's analyzers, in contract
// order. Ignore directives are checked against them.
var Names = []string{"unfencedwrite", "optionaltoken", "appcheck", "weaktoken", "fencepredicate", "silentreject"}
