package rules

import "testing"

func TestGormEcosystemIsLibrary(t *testing.T) {
	for _, p := range []string{"gorm.io/gorm", "gorm.io/gen", "gorm.io/gen/field", "gorm.io/plugin/dbresolver"} {
		if !IsLibraryPackage(p) {
			t.Errorf("IsLibraryPackage(%q) = false: a gorm library would get write facts from chains it cannot see whole", p)
		}
	}
	if IsLibraryPackage("gorm.iox/app") || IsLibraryPackage("example.com/gorm.io") {
		t.Error("IsLibraryPackage matches beyond the gorm.io module path")
	}
}
