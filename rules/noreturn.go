package rules

import (
	"bytes"
	"go/types"
	"strings"
)

// NoReturn lists functions that never return to their caller: they end
// the process or the goroutine (os.Exit, runtime.Goexit, t.Fatal), or the
// logging call panics or exits after writing. A call of one ends a path,
// so code after it (a retry loop's back edge, say) is not reachable from
// it. The list follows x/tools' ctrlflow and staticcheck; the engine adds
// local wrappers by inference and carries them across packages in facts.
var NoReturn = []string{
	"os.Exit", "syscall.Exit", "runtime.Goexit",
	"log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln",
	"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln",
	"(*log.Logger).Panic", "(*log.Logger).Panicf", "(*log.Logger).Panicln",
	// t.Fatal and friends of *testing.T, B and F are promoted from common.
	"(*testing.common).FailNow", "(*testing.common).Fatal", "(*testing.common).Fatalf",
	"(*testing.common).SkipNow", "(*testing.common).Skip", "(*testing.common).Skipf",
	// Through testing.TB the call is dynamic: the SSA builder cannot end
	// the block, so the engine's own walks look these up.
	"(testing.TB).FailNow", "(testing.TB).Fatal", "(testing.TB).Fatalf",
	"(testing.TB).SkipNow", "(testing.TB).Skip", "(testing.TB).Skipf",
	"(*go.uber.org/zap.Logger).Fatal", "(*go.uber.org/zap.Logger).Panic",
	"(*go.uber.org/zap.SugaredLogger).Fatal", "(*go.uber.org/zap.SugaredLogger).Fatalf",
	"(*go.uber.org/zap.SugaredLogger).Fatalw", "(*go.uber.org/zap.SugaredLogger).Fatalln",
	"(*go.uber.org/zap.SugaredLogger).Panic", "(*go.uber.org/zap.SugaredLogger).Panicf",
	"(*go.uber.org/zap.SugaredLogger).Panicw", "(*go.uber.org/zap.SugaredLogger).Panicln",
	"github.com/sirupsen/logrus.Fatal", "github.com/sirupsen/logrus.Fatalf", "github.com/sirupsen/logrus.Fatalln",
	"github.com/sirupsen/logrus.Panic", "github.com/sirupsen/logrus.Panicf", "github.com/sirupsen/logrus.Panicln",
	"(*github.com/sirupsen/logrus.Logger).Exit",
	"(*github.com/sirupsen/logrus.Logger).Fatal", "(*github.com/sirupsen/logrus.Logger).Fatalf", "(*github.com/sirupsen/logrus.Logger).Fatalln",
	"(*github.com/sirupsen/logrus.Logger).Panic", "(*github.com/sirupsen/logrus.Logger).Panicf", "(*github.com/sirupsen/logrus.Logger).Panicln",
	"(*github.com/sirupsen/logrus.Entry).Fatal", "(*github.com/sirupsen/logrus.Entry).Fatalf", "(*github.com/sirupsen/logrus.Entry).Fatalln",
	"(*github.com/sirupsen/logrus.Entry).Panic", "(*github.com/sirupsen/logrus.Entry).Panicf", "(*github.com/sirupsen/logrus.Entry).Panicln",
	"k8s.io/klog.Exit", "k8s.io/klog.ExitDepth", "k8s.io/klog.Exitf", "k8s.io/klog.Exitln",
	"k8s.io/klog.Fatal", "k8s.io/klog.FatalDepth", "k8s.io/klog.Fatalf", "k8s.io/klog.Fatalln",
	"k8s.io/klog/v2.Exit", "k8s.io/klog/v2.ExitDepth", "k8s.io/klog/v2.Exitf", "k8s.io/klog/v2.Exitln",
	"k8s.io/klog/v2.Fatal", "k8s.io/klog/v2.FatalDepth", "k8s.io/klog/v2.Fatalf", "k8s.io/klog/v2.Fatalln",
	"github.com/golang/glog.Exit", "github.com/golang/glog.ExitDepth", "github.com/golang/glog.Exitf", "github.com/golang/glog.Exitln",
	"github.com/golang/glog.Fatal", "github.com/golang/glog.FatalDepth", "github.com/golang/glog.Fatalf", "github.com/golang/glog.Fatalln",
}

var (
	noReturnByFunc = map[funcKey]bool{}
	// noReturnNames are the function and method names of NoReturn: the SSA
	// builder asks IsNoReturn about every call, and nearly every name is
	// ruled out without computing its funcKey.
	noReturnNames = map[string]bool{}
)

func init() {
	for _, f := range NoReturn {
		k := parseKey(f)
		noReturnByFunc[k] = true
		noReturnNames[k.name[strings.LastIndexByte(k.name, '.')+1:]] = true
	}
}

// IsNoReturn reports whether fn is known never to return (see NoReturn).
func IsNoReturn(fn *types.Func) bool {
	return fn != nil && noReturnNames[fn.Name()] && noReturnByFunc[keyOf(fn)]
}

// IsNoReturnName reports whether some function or method NoReturn lists
// has this name: the syntactic test of a call, before types are known.
func IsNoReturnName(name string) bool { return noReturnNames[name] }

// noReturnCalls are "Name(" for every function NoReturn lists, and the
// panic builtin: the bytes a no-return wrapper's body must contain.
var noReturnCalls = func() [][]byte {
	seen := map[string]bool{"panic": true}
	out := [][]byte{[]byte("panic(")}
	for _, f := range NoReturn {
		name := f[strings.LastIndex(f, ".")+1:]
		if !seen[name] {
			seen[name] = true
			out = append(out, []byte(name+"("))
		}
	}
	return out
}()

// MayCallNoReturn reports whether src may call a function that never
// returns (a NoReturn function or panic): the go vet driver's cheap test,
// before parsing, of whether a package may declare a no-return wrapper
// whose fact other packages need. False means it certainly calls none by
// name; a wrapper of another package's wrapper is caught by that package's
// facts instead.
func MayCallNoReturn(src []byte) bool {
	for _, c := range noReturnCalls {
		if bytes.Contains(src, c) {
			return true
		}
	}
	return false
}
