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

// Gocron is gocron v2's distributed locker: the lock it takes before a job
// never reaches the job, so no token can flow into the job's writes.
var Gocron = Lib{
	Name:  "gocron",
	Paths: []string{"github.com/go-co-op/gocron/v2"},
	Acquires: []Acquire{
		{Func: "(github.com/go-co-op/gocron/v2.Locker).Lock", Success: ErrNil, Lock: "gocron Locker", NoToken: true, KeyArg: -1, LockResult: true},
	},
	Releases: []string{"(github.com/go-co-op/gocron/v2.Lock).Unlock"},
}
