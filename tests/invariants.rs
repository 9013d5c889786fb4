//! The layering rules of ARCHITECTURE.md, checked on every host test run.

use std::fs;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source tree") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file under src/.
fn src_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files
}

/// Lines of code (comments dropped) under `dir` that mention any of `words` as a path segment.
fn mentions(dir: &str, words: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    let mut hits = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("utf-8 source");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if words
                .iter()
                .any(|w| code.contains(&format!("{w}::")) || code.contains(&format!("use {w}")))
            {
                hits.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    hits
}

#[test]
fn rules_have_no_web_imports() {
    let hits = mentions(
        "src/rules",
        &[
            "leptos",
            "web_sys",
            "js_sys",
            "gloo_storage",
            "gloo_utils",
            "wasm_bindgen",
        ],
    );
    assert!(
        hits.is_empty(),
        "src/rules must stay pure:\n{}",
        hits.join("\n")
    );
}

#[test]
fn storage_has_no_ui_imports() {
    let hits = mentions("src/storage", &["leptos", "crate::ui"]);
    assert!(
        hits.is_empty(),
        "src/storage must not depend on the UI:\n{}",
        hits.join("\n")
    );
}

#[test]
fn no_inner_html_anywhere() {
    let found: Vec<String> = src_files()
        .into_iter()
        .filter(|f| {
            fs::read_to_string(f)
                .unwrap_or_default()
                .contains("inner_html")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(found.is_empty(), "inner_html found in {found:?}");
}

/// The checker itself finds what it looks for.
#[test]
fn the_checker_sees_imports() {
    let hits = mentions("src/ui", &["leptos"]);
    assert!(!hits.is_empty());
}

/// Only the app root mounts the live table: no page or component imports `ui/table/` (the
/// fight's page reaches its panel through the `TableHook` context). The root is `ui/mod.rs`
/// and its route table, `ui/lazy.rs` (which draws the table's page once its module is in).
#[test]
fn nothing_in_ui_imports_the_table_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut hits = Vec::new();
    for file in files {
        if file == root.join("mod.rs")
            || file == root.join("lazy.rs")
            || file.starts_with(root.join("table"))
        {
            continue;
        }
        let text = fs::read_to_string(&file).expect("utf-8 source");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("ui::table") || code.contains("super::table") {
                hits.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "ui/ imports the table:\n{}",
        hits.join("\n")
    );
    assert!(
        fs::read_to_string(root.join("mod.rs"))
            .unwrap()
            .contains("table::provide()"),
        "the checker looks where the table is mounted"
    );
}

/// One sort in the shipped code (`rules::order`): every other `sort` of another element type
/// or comparator is another copy of the standard library's sort in the wasm. Test modules
/// (their own files, or after `#[cfg(test)]`) may sort as they like.
#[test]
fn no_sort_outside_the_one_sort() {
    let found: Vec<String> = src_files()
        .into_iter()
        .filter(|f| {
            let name = f.to_string_lossy();
            !name.ends_with("order.rs") && !name.ends_with("tests.rs")
        })
        .filter(|f| {
            let code = fs::read_to_string(f).unwrap_or_default();
            let shipped = code.split("#[cfg(test)]").next().unwrap_or_default();
            // (`self.sort()` is the encounter state's own order, through `rules::order`.)
            let plain = shipped
                .match_indices(".sort(")
                .any(|(i, _)| !shipped[..i].ends_with("self"));
            plain
                || [".sort_by", ".sort_unstable", "sort_by_key("]
                    .iter()
                    .any(|w| shipped.contains(w))
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(found.is_empty(), "a sort outside rules::order in {found:?}");
}
