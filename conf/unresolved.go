package conf

// Unresolved returns the name of the leftmost ${name} reference left in a value that
// Substitute returned, and whether there is one. Substitute stops at the first reference
// to a property that is not set, so that is the name: the variable a user forgot to
// define (such as nameNode in ${nameNode}/user/joe/app).
func Unresolved(substituted string) (string, bool) {
	loc := variablePattern.FindStringIndex(substituted)
	if loc == nil {
		return "", false
	}
	return substituted[loc[0]+2 : loc[1]-1], true
}
