package rules

import "go/types"

// Retry runners call a function argument until it returns a nil error
// (or give up and return its last error). Code that takes a lock through
// one (err := retry.Do(ctx, b, func(ctx) error { return store.TryLock(ctx) }))
// holds the lock once the runner returns nil, and code that releases a
// lock through one has released it: the engine lifts an acquire or a
// release inside the function argument to the runner's call (scope.go).

const (
	goRetry    = "github.com/sethvargo/go-retry"
	backoffV3  = "github.com/cenkalti/backoff/v3"
	backoffV4  = "github.com/cenkalti/backoff/v4"
	backoffV5  = "github.com/cenkalti/backoff/v5"
	avastRetry = "github.com/avast/retry-go/v4"
	k8sWait    = "k8s.io/apimachinery/pkg/util/wait"
)

// RetryRunners maps a runner's key (Key) to the index of the parameter
// holding the function it runs. Every runner returns an error as its
// last result: nil when the function last returned nil (a poller's
// condition: when it last returned true), so the function returned with
// whatever lock it took held.
var RetryRunners = map[string]int{
	goRetry + ".Do":            2, // Do(ctx, b Backoff, f RetryFunc) error
	goRetry + ".DoValue":       2, // DoValue[T](ctx, b, f RetryFuncValue[T]) (T, error)
	backoffV3 + ".Retry":       0, // Retry(o Operation, b BackOff) error
	backoffV3 + ".RetryNotify": 0,
	backoffV4 + ".Retry":       0, // the same in v4
	backoffV4 + ".RetryNotify": 0, // RetryNotify(o Operation, b BackOff, notify Notify) error
	backoffV5 + ".Retry":       1, // Retry[T](ctx, operation Operation[T], opts ...RetryOption) (T, error)
	avastRetry + ".Do":         0, // Do(retryableFunc RetryableFunc, opts ...Option) error
	avastRetry + ".DoWithData": 0, // DoWithData[T](f RetryableFuncWithData[T], opts ...Option) (T, error)
	// apimachinery's pollers run a condition func() (done bool, err error)
	// until it is done: nil once it returned true.
	k8sWait + ".Poll":                          2, // Poll(interval, timeout, condition ConditionFunc) error
	k8sWait + ".PollImmediate":                 2,
	k8sWait + ".PollUntilContextCancel":        3, // (ctx, interval, immediate, condition)
	k8sWait + ".PollUntilContextTimeout":       4, // (ctx, interval, timeout, immediate, condition)
	k8sWait + ".ExponentialBackoff":            1, // (backoff, condition)
	k8sWait + ".ExponentialBackoffWithContext": 2, // (ctx, backoff, condition)
}

// retryRunnerNames are the function names of RetryRunners: the engine asks
// RetryRunnerArg about every call it classifies.
var retryRunnerNames = map[string]bool{
	"Do": true, "DoValue": true, "Retry": true, "RetryNotify": true, "DoWithData": true,
	"Poll": true, "PollImmediate": true, "PollUntilContextCancel": true, "PollUntilContextTimeout": true,
	"ExponentialBackoff": true, "ExponentialBackoffWithContext": true,
}

// RetryRunnerArg returns the index of the argument of a call of fn that is
// the function the runner retries, if fn is one of RetryRunners.
func RetryRunnerArg(fn *types.Func) (int, bool) {
	if fn == nil || !retryRunnerNames[fn.Name()] || fn.Pkg() == nil {
		return 0, false
	}
	i, ok := RetryRunners[Key(fn)]
	return i, ok
}
