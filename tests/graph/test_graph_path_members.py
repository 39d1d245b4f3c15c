"""``graph path`` between two classes goes through their members' calls (spring-petclinic, walked as
a new user: ``kenning graph path PetController OwnerRepository`` answered file → the one snapshot
commit → file, while ``PetController.findOwner`` calls ``OwnerRepository.findById``); a commit that
touched both files links them still when nothing else does."""

from __future__ import annotations

import os
import subprocess

from graph_edges import path_hits

from conftest import GIT_ENV, resync

PKG = "src/main/java/org/clinic/owner"
FILES = {
    f"{PKG}/OwnerRepository.java": (
        "package org.clinic.owner;\n\npublic interface OwnerRepository {\n    Owner findById(Integer id);\n}\n"
    ),
    f"{PKG}/PetController.java": (
        "package org.clinic.owner;\n\nclass PetController {\n    private OwnerRepository owners;\n\n"
        "    Owner findOwner(int ownerId) {\n        return this.owners.findById(ownerId);\n    }\n}\n"
    ),
    f"{PKG}/VetController.java": "package org.clinic.owner;\n\nclass VetController {\n    void list() {}\n}\n",
}


def _committed(root) -> None:
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "-C", str(root), "init", "-q", "-b", "main"], env=env, check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], env=env, check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "snapshot"], env=env, check=True)


def _path(project, a: str, b: str) -> list[tuple[str, str]]:
    """(the node's qualified name or path, the edge that reached it) along ``path_between``."""
    return [
        (h.node.qualname or h.node.path or "", h.steps[-1].edge.type if h.steps else "")
        for h in path_hits(project, a, b)
    ]


def test_a_path_between_two_classes_goes_through_their_members_calls(make_project):
    project = make_project(FILES, name="members")
    _committed(project.root)
    resync(project)
    assert _path(project, "PetController", "OwnerRepository") == [
        ("PetController.findOwner", ""),
        ("OwnerRepository.findById", "calls"),
    ]


def test_a_commit_that_touched_both_files_links_them_only_when_nothing_else_does(make_project):
    project = make_project(FILES, name="hub")
    _committed(project.root)
    resync(project)
    path = _path(project, "VetController", "OwnerRepository")
    assert [edge for _, edge in path].count("touches") == 2, path  # nothing else links them: the commit
