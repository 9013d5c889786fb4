//! One sort for the whole app. Every `sort` of another element type or with another comparator
//! is a new copy of the standard library's sort in the wasm (kilobytes each); this one sorts
//! indices through a `dyn` comparator, compiled once, and [`sort_with`] moves the elements into
//! that order. Stable, like `slice::sort_by`.

use std::cmp::Ordering;

/// The indices `0..n` in the order `cmp` gives them (stable: ties keep their order).
pub fn order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    idx
}

/// Sorts `v` by `cmp`, stably.
pub fn sort_with<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let idx = order(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(idx.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `v` in its natural order.
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_with(v, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library_and_keeps_ties_in_order() {
        let mut seed = 7u64;
        for n in 0..60 {
            let v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut mine = v.clone();
            sort_with(&mut mine, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(mine, std, "stable, as slice::sort_by");
            let mut rev = v.clone();
            sort_with(&mut rev, |a, b| b.cmp(a));
            let mut std = v;
            std.sort_by(|a, b| b.cmp(a));
            assert_eq!(rev, std);
        }
        let mut w = vec!["b".to_owned(), "a".into(), "c".into(), "a".into()];
        sort(&mut w);
        assert_eq!(w, ["a", "a", "b", "c"]);
    }
}
