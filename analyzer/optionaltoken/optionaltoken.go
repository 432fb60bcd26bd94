package optionaltoken

import (
	"fmt"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
)

// Lint is the analyzer with its documentation.
var Lint = lintutil.Init(&lint.Analyzer{
	Analyzer: &analysis.Analyzer{
		Name:     "optionaltoken",
		Run:      run,
		Requires: []*analysis.Analyzer{fence.Analyzer},
	},
	Doc: &lint.RawDocumentation{
		Title: "report fencing tokens that a caller can leave out",
		Text: `A fencing token only protects a write that carries it. A signature that
accepts an optional token is one refactor away from a call site that forgets
it, and the failure is silent until the day a lock holder pauses past its
lease: the write without a token is exactly the write the fence was meant to
reject.

optionaltoken reports, at the parameter, a fencing token taken as a
pointer, a variadic, a sql.Null* or other nullable wrapper, any, or a
functional option (both the WithFence-style constructor and the function
taking ...Option). A parameter is a fencing token when it fences a write
(also known across packages through facts), is of a lease's token type,
is passed a lease's token by a caller, or is named like one (token, fence,
fencingToken, epoch, generation, revision) and reaches a write; the name
alone is not enough. At the field, a lease or request struct's token field
that is a pointer or tagged omitempty (json, yaml, db). At the argument, a
literal 0 or nil passed for a token parameter, also across packages. At the
condition, an if that falls back to an unfenced write when the token is
zero.`,
		Before: `
func SaveDoc(ctx context.Context, db *sql.DB, id string, fence *int64) error`,
		After: `
func SaveDoc(ctx context.Context, db *sql.DB, id string, fence int64) error`,
		Since:    "v0.1.0",
		Severity: lint.SeverityWarning,
		MergeIf:  lint.MergeIfAny,
	},
})

// Analyzer is the bare analyzer for go vet, golangci-lint and analysistest.
var Analyzer = Lint.Analyzer

func run(pass *analysis.Pass) (any, error) {
	model := pass.ResultOf[fence.Analyzer].(*fence.Model)
	if !model.Relevant {
		return nil, nil // fast path: nothing lock-related in reach
	}
	ig := model.Ignores.For() // parsed once by the engine; the used-marks are this analyzer's
	for _, d := range model.Defects {
		if (d.Kind != fence.DefectOptionalToken && d.Kind != fence.DefectZeroFallback) || d.Token == nil {
			continue
		}
		related := make([]analysis.RelatedInformation, len(d.Related))
		for i, r := range d.Related {
			related[i] = analysis.RelatedInformation{Pos: r.Pos, End: r.End, Message: r.Message}
		}
		ig.Report(pass, analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: d.Category, Message: Message(d.Token), Related: related})
	}
	ig.Finish(pass, lintutil.Names)
	return nil, nil
}

// Message says what can be left out and how to make the token required.
func Message(u *fence.TokenUse) string {
	param := fmt.Sprintf("fencing token parameter %s of %s", u.Name, u.Func)
	field := fmt.Sprintf("fencing token field %s of %s", u.Name, u.Of)
	switch u.Shape {
	case fence.ShapePointer:
		return param + " is a pointer: a caller can pass nil and skip the fence; take it by value"
	case fence.ShapeVariadic:
		return param + " is variadic: a caller can leave it out and skip the fence; make it a required parameter"
	case fence.ShapeNullable:
		return fmt.Sprintf("%s is the nullable %s: a caller can pass it unset and skip the fence; take the token by value", param, u.Type)
	case fence.ShapeAny:
		return param + " is any: a caller can pass nil and skip the fence; give it the token's integer type"
	case fence.ShapeOptionParam:
		return fmt.Sprintf("%s of %s takes the fencing token as an option (%s): a caller can leave it out and skip the fence; make the token a required parameter", u.Name, u.Func, u.Type)
	case fence.ShapeOptionCtor:
		return fmt.Sprintf("%s makes the fencing token an option: a caller can leave it out and skip the fence; make the token a required parameter of the write", u.Name)
	case fence.ShapeFieldPointer:
		return field + " is a pointer: it can be nil and the write goes unfenced; make it a value"
	case fence.ShapeFieldOmitempty:
		return fmt.Sprintf("%s is tagged %s omitempty: a zero or missing token vanishes on the wire and the write goes unfenced; drop omitempty", field, u.Type)
	case fence.ShapeLiteral:
		if strings.HasPrefix(u.Literal, "math.Max") {
			return fmt.Sprintf("%s passed as fencing token %s of %s: it passes every fence and then rejects every later holder; pass the lease's token", u.Literal, u.Name, u.Func)
		}
		lit := "literal " + u.Literal
		if u.Literal != "0" && u.Literal != "nil" {
			lit = u.Literal + ", a zero constant,"
		}
		return fmt.Sprintf("%s passed as fencing token %s of %s: the write is not fenced; pass the lease's token", lit, u.Name, u.Func)
	case fence.ShapeFieldLeftOut:
		return fmt.Sprintf("%s is left out of the literal passed to %s: it is 0 and the write is not fenced; set it to the lease's token", field, u.Func)
	case fence.ShapeBranch:
		zero, article := u.Zero, "a"
		if zero == "" {
			zero = "zero"
		}
		if zero == "empty" || zero == "unset" {
			article = "an"
		}
		return fmt.Sprintf("when %s is %s the write falls back to an unfenced %s: reject %s %s token instead of skipping the fence", u.Name, zero, u.Func, article, zero)
	}
	return "the fencing token can be left out"
}
