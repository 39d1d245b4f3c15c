"""A Java or Kotlin inner class's call on its outer class's typed field is a call on that field's
type (spring-petclinic, walked as a new user: in ``PetValidatorTests``, whose ``@Nested`` class
calls ``petValidator.validate(pet, errors)`` on the outer class's ``PetValidator petValidator``,
the call was linked, ``extracted``, to the test class's own ``validate`` test: "which tests cover
PetValidator" showed one test testing another)."""

from __future__ import annotations

from graph_edges import callees

from conftest import resync

OWNER = "src/main/java/org/clinic/owner"
TESTS = "src/test/java/org/clinic/owner"
FILES = {
    f"{OWNER}/PetValidator.java": (
        "package org.clinic.owner;\n\npublic class PetValidator {\n"
        '    public void validate(Object obj, Errors errors) {\n        errors.reject("name");\n    }\n}\n'
    ),
    f"{TESTS}/PetValidatorTests.java": (
        "package org.clinic.owner;\n\nclass PetValidatorTests {\n\n"
        "    private PetValidator petValidator;\n\n"
        "    @Test\n    void validate() {\n        petValidator.validate(pet, errors);\n    }\n\n"
        "    @Nested\n    class ValidateHasErrors {\n\n"
        "        @Test\n        void validateWithInvalidPetName() {\n            petValidator.validate(pet, errors);\n"
        "        }\n    }\n}\n"
    ),
}


def test_an_inner_class_calls_on_its_outer_class_field_reach_the_field_type(make_project):
    project = make_project(FILES, name="nested")
    resync(project)
    assert callees(project, "PetValidatorTests.ValidateHasErrors.validateWithInvalidPetName") == {
        ("PetValidator.validate", "extracted")
    }
    assert callees(project, "PetValidatorTests.validate") == {("PetValidator.validate", "extracted")}
