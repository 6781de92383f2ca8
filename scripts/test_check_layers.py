"""Tests of scripts/check_layers.py: each form of path it must read, and each failure.

    python3 -m unittest discover -s scripts -p 'test_*.py'
"""
from __future__ import annotations

import io
import json
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_layers  # noqa: E402


def crate(files: dict[str, str], layers: list[list[str]] | None = None) -> tuple[int, str]:
    """Writes a crate of `files` under a temporary root and runs the check on it."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        for rel, text in files.items():
            path = root / "src" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        spec = {"root": "lib.rs"}
        if layers is not None:
            spec["layers"] = layers
        (root / "layers.json").write_text(json.dumps({"crates": {"src": spec}}))
        out = io.StringIO()
        with redirect_stdout(out):
            code = check_layers.main(["--root", d, "--config", str(root / "layers.json")])
        return code, out.getvalue()


LIB = "mod a;\nmod b;\nmod c;\n"


class Forms(unittest.TestCase):
    """Each way a path can name another module makes an edge (here: a cycle with b -> a)."""

    def cycle_through(self, a_text: str) -> None:
        code, out = crate({"lib.rs": LIB, "a.rs": a_text, "b.rs": "use crate::a::X;\n", "c.rs": ""})
        self.assertEqual(code, 1, out)
        self.assertIn("import cycle among a, b", out)

    def test_plain_use(self):
        self.cycle_through("use crate::b::Y;\n")

    def test_grouped_use(self):
        self.cycle_through("use crate::{c::Z, b::Y};\n")

    def test_nested_group_with_self_and_rename(self):
        self.cycle_through("use crate::{c, b::{self as bee, Y as Why}};\n")

    def test_glob(self):
        self.cycle_through("use crate::b::*;\n")

    def test_pub_use_and_restricted_pub_use(self):
        self.cycle_through("pub use crate::b::Y;\n")
        self.cycle_through("pub(crate) use crate::b::Y;\n")

    def test_multiline_use(self):
        self.cycle_through("use crate::{\n    c::Z,\n    b::{\n        Y,\n    },\n};\n")

    def test_path_in_expression(self):
        self.cycle_through("fn f() -> u8 { crate::b::y() + crate :: b :: z() }\n")

    def test_path_in_type(self):
        self.cycle_through("struct S { f: crate::b::Y }\n")

    def test_path_in_a_string_attribute(self):
        self.cycle_through('#[serde(with = "crate::b")]\nstruct S;\n')

    def test_super_from_a_nested_file(self):
        code, out = crate({
            "lib.rs": LIB, "a/mod.rs": "mod inner;\n", "a/inner.rs": "use super::super::b::Y;\n",
            "b.rs": "use crate::a::X;\n", "c.rs": "",
        })
        self.assertEqual(code, 1, out)
        self.assertIn("import cycle among a, b", out)

    def test_super_from_a_top_level_file_reaches_a_sibling(self):
        self.cycle_through("use super::b::Y;\n")

    def test_self_inside_a_folder(self):
        code, out = crate({"lib.rs": LIB, "a/mod.rs": "mod k;\nuse self::k::X;\n", "a/k.rs": "",
                           "b.rs": "", "c.rs": ""})
        self.assertEqual(code, 0, out)

    def test_name_reexported_by_the_root(self):
        code, out = crate({"lib.rs": LIB + "pub use b::Y;\n", "a.rs": "use crate::Y;\n",
                           "b.rs": "use crate::a::X;\n", "c.rs": ""})
        self.assertEqual(code, 1, out)
        self.assertIn("import cycle among a, b", out)


class Ignored(unittest.TestCase):
    """Comments, strings that are not paths, and test code make no edge."""

    def no_cycle(self, a_text: str) -> None:
        code, out = crate({"lib.rs": LIB, "a.rs": a_text, "b.rs": "use crate::a::X;\n", "c.rs": ""})
        self.assertEqual(code, 0, out)

    def test_comments(self):
        self.no_cycle("// use crate::b::Y;\n/* crate::b::z() /* nested */ crate::b */\n/// [`crate::b::Y`]\n")

    def test_plain_strings_and_chars(self):
        self.no_cycle('const S: &str = "see crate::b::Y for more"; const C: char = \'"\';\n'
                      'const R: &str = r#"see crate::b::Y"#;\n')

    def test_cfg_test_module(self):
        self.no_cycle("fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::b::Y;\n}\n")

    def test_cfg_test_item(self):
        self.no_cycle("#[cfg(test)]\nuse crate::b::Y;\n#[cfg(test)]\n#[allow(dead_code)]\nfn t() { crate::b::y(); }\n")

    def test_external_crates(self):
        self.no_cycle("use std::fmt;\nuse serde::Serialize;\nfn f() { ::std::mem::drop(1); }\n")

    def test_use_super_star_in_an_inline_module_is_the_file_itself(self):
        self.no_cycle("mod helpers {\n    use super::*;\n    fn g() { super::f() }\n}\nfn f() {}\n")


class Layers(unittest.TestCase):
    def test_upward_import_fails_naming_the_file_and_line(self):
        code, out = crate({"lib.rs": LIB, "a.rs": "", "b.rs": "\nuse crate::a::X;\n", "c.rs": ""},
                          layers=[["a"], ["b"], ["c"]])
        self.assertEqual(code, 1, out)
        self.assertIn("b.rs:2: `b` imports `crate::a::X` from the higher layer `a`", out)

    def test_downward_and_same_layer_imports_pass(self):
        code, out = crate({"lib.rs": LIB, "a.rs": "use crate::b::Y;\nuse crate::c::Z;\n",
                           "b.rs": "use crate::c::Z;\n", "c.rs": ""},
                          layers=[["a", "b"], ["c"]])
        self.assertEqual(code, 0, out)

    def test_a_module_in_no_layer_fails(self):
        code, out = crate({"lib.rs": LIB, "a.rs": "", "b.rs": "", "c.rs": ""}, layers=[["a", "b"]])
        self.assertEqual(code, 1, out)
        self.assertIn("module `c` is in no layer", out)


class UseTrees(unittest.TestCase):
    def test_expansion(self):
        self.assertEqual(
            check_layers.expand_use_tree("crate::{a, b::{self, c as d, e::*}, f}"),
            [["crate", "a"], ["crate", "b"], ["crate", "b", "c"], ["crate", "b", "e"], ["crate", "f"]],
        )


if __name__ == "__main__":
    unittest.main()
