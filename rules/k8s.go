package rules

const leaderelection = "k8s.io/client-go/tools/leaderelection"

// LeaderElection is client-go's leader election. OnStartedLeading runs while
// this process believes it leads; nothing is passed to it to fence with.
// LeaderTransitions, read from the Lease, is the per-Lease counter.
var LeaderElection = Lib{
	Name:      "client-go leaderelection",
	Paths:     []string{leaderelection},
	Callbacks: []string{leaderelection + ".LeaderCallbacks.OnStartedLeading"},
	Tokens: []Token{
		{Field: leaderelection + "/resourcelock.LeaderElectionRecord.LeaderTransitions", Desc: "the Lease's LeaderTransitions"},
		{Field: "k8s.io/api/coordination/v1.LeaseSpec.LeaseTransitions", Desc: "the Lease's LeaseTransitions"},
	},
}

const gocron = "github.com/go-co-op/gocron/v2"

// Gocron is gocron v2's distributed locker: the lock it takes before a job
// never reaches the job, so no token can flow into the job's writes. A task
// function registered with NewTask in a package that configures a
// distributed locker or elector runs as a lock scope without a token.
var Gocron = Lib{
	Name:  "gocron",
	Paths: []string{gocron},
	Acquires: []Acquire{
		{Func: "(" + gocron + ".Locker).Lock", Success: ErrNil, Lock: "gocron Locker", NoToken: true, KeyArg: -1, LockResult: true},
	},
	Releases: []string{"(" + gocron + ".Lock).Unlock"},
}

// GocronTask is the function whose first argument becomes a scheduled job.
const GocronTask = gocron + ".NewTask"

// GocronPkg is gocron v2's package, whose NewTask and event listeners make
// scopes.
const GocronPkg = gocron

// GocronLockedHooks are the event listeners whose func argument gocron's
// executor (executor.runJob in the library's root package) calls while the
// job's distributed lock is held, or after the elector said this instance
// leads: between Locker.Lock and the deferred Unlock, before and after the
// task. They run in the same lock scope as the task, without a token.
// AfterLockError is not one: it runs when Lock failed.
var GocronLockedHooks = map[string]bool{
	gocron + ".BeforeJobRuns":                       true,
	gocron + ".BeforeJobRunsSkipIfBeforeFuncErrors": true,
	gocron + ".AfterJobRuns":                        true,
	gocron + ".AfterJobRunsWithError":               true,
	gocron + ".AfterJobRunsWithPanic":               true,
}

// GocronDistributed are the options that put a scheduler's jobs under a
// distributed lock or leader election.
var GocronDistributed = map[string]bool{
	gocron + ".WithDistributedLocker":    true,
	gocron + ".WithDistributedElector":   true,
	gocron + ".WithDistributedJobLocker": true,
}
