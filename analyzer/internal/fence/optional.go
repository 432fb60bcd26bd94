package fence

// tokenParamFacts records, in FuncFact.TokenParams, the parameters of this
// package's functions that carry a fencing token, for optionaltoken's
// cross-package call-site check.
func (e *engine) tokenParamFacts() {}
