//! Three-way merge of a stored document edited in two tabs at once: what this tab changed and
//! what the other tab changed since the version both started from are combined field by field;
//! a field both changed differently is a conflict for the player to decide.
//!
//! Objects merge key by key and arrays of unchanged length element by element (an attribute
//! raised here and another raised there are both kept); anything else is one value. Keys named
//! in `whole` merge as one value (a fight's event log: two tabs' events are never interleaved).

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::Serialize;
use serde_json::value::RawValue;

use super::store::{KeyValueStore, StorageError};
use super::versioned::{decode, Versioned};

/// A field changed differently on both sides: where, and the two values (as short text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: String,
    pub mine: String,
    pub theirs: String,
}

impl Conflict {
    /// The field in a player's words: `sheet.attributes.1.value` → "attributes #2".
    pub fn field(&self) -> String {
        let words: Vec<String> = self
            .path
            .split('.')
            .filter(|w| !matches!(*w, "sheet" | "value"))
            .map(|w| match w.parse::<usize>() {
                Ok(i) => format!("#{}", i + 1),
                Err(_) => w.replace('_', " "),
            })
            .collect();
        words.join(" ")
    }
}

/// Says which fields two tabs both changed, for the question put to the player.
pub fn describe(what: &str, conflicts: &[Conflict]) -> String {
    if conflicts.iter().any(|c| c.path == "everything") {
        return format!("{what} was also changed in another tab, in ways that cannot be combined. Choose which version to keep.");
    }
    let fields: Vec<String> = conflicts
        .iter()
        .map(|c| format!("{} (here {}, there {})", c.field(), c.mine, c.theirs))
        .collect();
    format!(
        "{what} was also changed in another tab. Both changed: {}. Every other change is kept.",
        fields.join("; ")
    )
}

/// What reconciling this tab's copy with the stored one gives (documents as canonical JSON
/// text: see [`canonical`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Both changes fit together (or only one side changed): the merged document.
    Merged(String),
    /// Some fields differ on both sides: the player chooses. The document with every conflict
    /// decided for this tab, then for the other tab, both with every other change merged.
    Ask {
        conflicts: Vec<Conflict>,
        keep_mine: String,
        take_theirs: String,
    },
}

/// A stored document's canonical text, `None` if it is not a valid document: decoded (and
/// migrated) as loading does, checked as the importer checks, and written as saving writes.
/// Documents compare and merge as this text, so no stored type needs `PartialEq` or a
/// second copy of its (de)serializer for JSON trees: the phone downloads less.
pub type Canon = fn(&str) -> Option<String>;

/// [`Canon`] for a stored type with its validation.
pub fn canonical<T: Versioned + Serialize>(
    text: &str,
    check: fn(&T) -> Result<(), String>,
) -> Option<String> {
    let doc = decode::<T>(text).ok()?;
    check(&doc).ok()?;
    serde_json::to_string(&doc).ok()
}

/// Merges `mine` and `theirs`, both descended from `base` (all canonical). `updated` (a
/// timestamp) takes the later of the two and is never a conflict. The result must pass
/// `canon` (the importer's validation), or everything counts as one conflict.
pub fn reconcile(base: &str, mine: &str, theirs: &str, whole: &[&str], canon: Canon) -> Outcome {
    if mine == theirs || theirs == base {
        return Outcome::Merged(mine.to_owned());
    }
    if mine == base {
        return Outcome::Merged(theirs.to_owned());
    }
    let whole_conflict = || Outcome::Ask {
        conflicts: vec![Conflict {
            path: "everything".into(),
            mine: String::new(),
            theirs: String::new(),
        }],
        keep_mine: mine.to_owned(),
        take_theirs: theirs.to_owned(),
    };
    if object(base).is_none() || object(mine).is_none() || object(theirs).is_none() {
        return whole_conflict();
    }
    let mut conflicts = Vec::new();
    let keep = merge3(base, mine, theirs, whole, "", true, &mut conflicts);
    let take = merge3(base, mine, theirs, whole, "", false, &mut Vec::new());
    match (canon(&keep), canon(&take)) {
        (Some(doc), _) if conflicts.is_empty() => Outcome::Merged(doc),
        (Some(keep_mine), Some(take_theirs)) => Outcome::Ask {
            conflicts,
            keep_mine,
            take_theirs,
        },
        _ => whole_conflict(),
    }
}
/// An object's members in their order, each value still as its JSON text. (A list, not a
/// map: documents have a few dozen keys, and a map of raw values would be one more copy of
/// the map code for the phone to download.)
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut list = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    list.push(entry);
                }
                Ok(Members(list))
            }
        }
        d.deserialize_map(Entries)
    }
}

impl Members {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.get())
    }

    fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

fn object(text: &str) -> Option<Members> {
    text.starts_with('{')
        .then(|| serde_json::from_str(text).ok())
        .flatten()
}

fn array(text: &str) -> Option<Vec<Box<RawValue>>> {
    text.starts_with('[')
        .then(|| serde_json::from_str(text).ok())
        .flatten()
}

/// Merges three canonical JSON texts (see the module notes), returning JSON text (members in
/// key order: [`Canon`] writes it canonically again). Conflicts are recorded with their path
/// and decided for this tab (`prefer_mine`) or the other.
///
/// It works on the text with serde_json's `RawValue` rather than on a `Value` tree: the
/// phone then downloads no JSON-tree code (canonical texts compare equal exactly when the
/// values do).
fn merge3(
    base: &str,
    mine: &str,
    theirs: &str,
    whole: &[&str],
    path: &str,
    prefer_mine: bool,
    conflicts: &mut Vec<Conflict>,
) -> String {
    if mine == theirs || theirs == base {
        return mine.to_owned();
    }
    if mine == base {
        return theirs.to_owned();
    }
    if !whole.contains(&path) {
        if let (Some(b), Some(m), Some(t)) = (object(base), object(mine), object(theirs)) {
            // The `whole` keys of this object move together (a fight's log and its undo
            // position): from the side that changed them, or one question when both did.
            let group = |o: &Members| {
                let parts: Vec<&str> = whole.iter().map(|k| o.get(k).unwrap_or("null")).collect();
                parts.join("\u{1}")
            };
            let (gb, gm, gt) = (group(&b), group(&m), group(&t));
            let in_group = |k: &str| path.is_empty() && whole.contains(&k) && m.contains_key(k);
            let from_mine = if gm == gt || gt == gb {
                true
            } else if gm == gb {
                false
            } else {
                if path.is_empty() && !whole.is_empty() {
                    conflicts.push(Conflict {
                        path: whole[0].to_owned(),
                        mine: super::transfer::short(&gm),
                        theirs: super::transfer::short(&gt),
                    });
                }
                prefer_mine
            };
            let mut out = String::from("{");
            for key in m.keys().chain(t.keys().filter(|k| !m.contains_key(k))) {
                let at = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                fn member<'a>(o: &'a Members, key: &str) -> &'a str {
                    o.get(key).unwrap_or("null")
                }
                let v = if in_group(key) {
                    member(if from_mine { &m } else { &t }, key).to_owned()
                } else if at == "updated" {
                    // The later edit's time; never a question for the player.
                    let time = |o: &Members| serde_json::from_str::<u64>(member(o, key)).ok();
                    match (time(&m), time(&t)) {
                        (Some(x), Some(y)) => x.max(y).to_string(),
                        _ => member(&m, key).to_owned(),
                    }
                } else {
                    merge3(
                        member(&b, key),
                        member(&m, key),
                        member(&t, key),
                        whole,
                        &at,
                        prefer_mine,
                        conflicts,
                    )
                };
                // A key removed on the side that won stays removed.
                if v == "null" && (!m.contains_key(key) || !t.contains_key(key)) {
                    continue;
                }
                if out.len() > 1 {
                    out.push(',');
                }
                out += &serde_json::to_string(key).unwrap_or_default();
                out.push(':');
                out += &v;
            }
            return out + "}";
        }
        if let (Some(b), Some(m), Some(t)) = (array(base), array(mine), array(theirs)) {
            // Item by item only where the items stay in place: objects with a `name` must have
            // the same name at each position on all three sides (a list reordered or with one
            // item replaced is one value).
            let name =
                |v: &RawValue| object(v.get()).and_then(|o| o.get("name").map(str::to_owned));
            let aligned = |i: usize| name(&b[i]) == name(&m[i]) && name(&m[i]) == name(&t[i]);
            if b.len() == m.len() && m.len() == t.len() && (0..m.len()).all(aligned) {
                let items: Vec<String> = (0..m.len())
                    .map(|i| {
                        let at = format!("{path}.{i}");
                        merge3(
                            b[i].get(),
                            m[i].get(),
                            t[i].get(),
                            whole,
                            &at,
                            prefer_mine,
                            conflicts,
                        )
                    })
                    .collect();
                return format!("[{}]", items.join(","));
            }
        }
    }
    conflicts.push(Conflict {
        path: path.to_owned(),
        mine: super::transfer::short(mine),
        theirs: super::transfer::short(theirs),
    });
    if prefer_mine { mine } else { theirs }.to_owned()
}

/// One tab's view of a kind of stored document (characters, encounters), kept per id: the
/// stored text it last read or wrote (the common ancestor when another tab writes), and the
/// conflicts waiting for the player. Texts are canonical ([`Canon`]).
pub struct Tracker {
    known: Vec<Known>,
    /// Where each id is in `known`: a full phone holds some ten thousand characters, and a
    /// list searched in order made loading them take seconds. (The same map type as the
    /// roster's import, so its code is in the app once.)
    at: std::collections::BTreeMap<String, usize>,
    whole: &'static [&'static str],
    /// Reads another tab's text (decoded, written again canonically; not validated: what the
    /// other tab stored is taken or merged, never ignored and overwritten).
    read: Canon,
    /// The importer's validation, for merged results.
    canon: Canon,
}

#[derive(Default)]
struct Known {
    id: String,
    base: Option<String>,
    /// In conflict: the ancestor and the other tab's version, until the player decides.
    pending: Option<(String, String)>,
}

/// What [`Tracker::arrive`] and [`Tracker::write`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Nothing to do (the version known already, or written as it was).
    Same,
    /// This tab's copy must become this document (taken or merged; canonical, valid).
    Take(String),
    /// A field changed on both sides: ask, and write nothing until answered.
    Ask(Vec<Conflict>),
}

impl Tracker {
    pub fn new(whole: &'static [&'static str], read: Canon, canon: Canon) -> Self {
        Tracker {
            known: Vec::new(),
            at: Default::default(),
            whole,
            read,
            canon,
        }
    }

    fn find(&self, id: &str) -> Option<&Known> {
        self.at.get(id).map(|&i| &self.known[i])
    }

    fn entry(&mut self, id: &str) -> &mut Known {
        let i = match self.at.get(id) {
            Some(&i) => i,
            None => {
                self.at.insert(id.to_owned(), self.known.len());
                self.known.push(Known {
                    id: id.to_owned(),
                    ..Known::default()
                });
                self.known.len() - 1
            }
        };
        &mut self.known[i]
    }

    /// `text` is what storage holds for `id` (just loaded or written).
    pub fn seen(&mut self, id: &str, text: String) {
        self.entry(id).base = Some(text);
    }

    pub fn forget(&mut self, id: &str) {
        if let Some(i) = self.at.remove(id) {
            self.known.swap_remove(i);
            if let Some(moved) = self.known.get(i) {
                self.at.insert(moved.id.clone(), i);
            }
        }
    }

    pub fn is_pending(&self, id: &str) -> bool {
        self.find(id).is_some_and(|k| k.pending.is_some())
    }

    /// Another tab stored `raw`. `mine` is this tab's copy when it holds unsaved edits. A
    /// stored text that is not a valid document is left to the loading paths.
    pub fn arrive(&mut self, id: &str, mine: Option<&str>, raw: &str) -> Step {
        let base = self.find(id).and_then(|k| match &k.pending {
            Some((b, _)) => Some(b.clone()),
            None => k.base.clone(),
        });
        // The common case, our own last write read back: a comparison, no parsing (a fight
        // saves on every tap).
        if base.as_deref() == Some(raw) {
            return Step::Same;
        }
        let Some(theirs) = (self.read)(raw) else {
            return Step::Same;
        };
        if base.as_ref() == Some(&theirs) {
            return Step::Same;
        }
        let (Some(mine), Some(base)) = (mine, base) else {
            self.seen(id, theirs.clone());
            return Step::Take(theirs);
        };
        match reconcile(&base, mine, &theirs, self.whole, self.canon) {
            Outcome::Merged(m) => {
                let k = self.entry(id);
                k.pending = None;
                k.base = Some(theirs);
                Step::Take(m)
            }
            Outcome::Ask { conflicts, .. } => {
                self.entry(id).pending = Some((base, theirs));
                Step::Ask(conflicts)
            }
        }
    }

    /// The player's answer: this tab's values for the conflicting fields (`keep_mine`) or the
    /// other tab's; every change made on one side only is kept either way, edits made here
    /// while the question was open included. The document this tab must now hold and save, or
    /// `None` if nothing was waiting.
    pub fn resolve(&mut self, id: &str, mine: &str, keep_mine: bool) -> Option<String> {
        let (base, theirs) = self.entry(id).pending.take()?;
        let doc = match reconcile(&base, mine, &theirs, self.whole, self.canon) {
            Outcome::Merged(m) => m,
            Outcome::Ask {
                keep_mine: k,
                take_theirs: t,
                ..
            } => {
                if keep_mine {
                    k
                } else {
                    t
                }
            }
        };
        self.seen(id, theirs);
        Some(doc)
    }

    /// Writes this tab's `mine` under `key` unless another tab stored a different version
    /// since this tab last saw it: then the two are merged first (the merge is written, and
    /// returned for this tab to show), or the player is asked and nothing is written.
    pub fn write(
        &mut self,
        store: &dyn KeyValueStore,
        key: &str,
        id: &str,
        mine: &str,
    ) -> Result<Step, StorageError> {
        if self.is_pending(id) {
            return Ok(Step::Ask(Vec::new()));
        }
        let mut step = Step::Same;
        if self.find(id).is_some_and(|k| k.base.is_some()) {
            if let Some(raw) = store.get(key)? {
                step = self.arrive(id, Some(mine), &raw);
            }
        }
        let doc = match &step {
            Step::Ask(_) => return Ok(step),
            Step::Take(m) => m,
            Step::Same => mine,
        };
        store.set(key, doc)?;
        self.seen(id, doc.to_owned());
        Ok(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{DiceSource, SeededSource};
    use crate::rules::heimr::{progress_required, HeimrSheet};
    use crate::storage::character::{Character, Sheet};
    use crate::storage::roster::{load_roster, save_index_with};
    use crate::storage::versioned::{save_to, Loaded};
    use crate::storage::{load_key, MemoryStore};

    fn heimr() -> Character {
        Character::new(
            "abc".into(),
            "Asa".into(),
            Sheet::Heimr(HeimrSheet::default()),
            1,
        )
    }

    fn sheet(c: &mut Character) -> &mut HeimrSheet {
        match &mut c.sheet {
            Sheet::Heimr(h) => h,
            _ => unreachable!(),
        }
    }

    fn canon(t: &str) -> Option<String> {
        canonical::<Character>(t, Character::validate)
    }

    fn txt(c: &Character) -> String {
        serde_json::to_string(c).unwrap()
    }

    fn doc(t: &str) -> Character {
        serde_json::from_str(t).unwrap()
    }

    fn merged(o: Outcome) -> Character {
        match o {
            Outcome::Merged(t) => doc(&t),
            other => panic!("no conflict expected: {other:?}"),
        }
    }

    /// Reconciles two characters descended from `base`, expecting a question.
    fn asked(base: &Character, a: &Character, b: &Character) -> (Vec<Conflict>, String, String) {
        match reconcile(&txt(base), &txt(a), &txt(b), &[], canon) {
            Outcome::Ask {
                conflicts,
                keep_mine,
                take_theirs,
            } => (conflicts, keep_mine, take_theirs),
            other => panic!("a conflict expected: {other:?}"),
        }
    }

    fn base_value(i: usize) -> i32 {
        HeimrSheet::default().attributes[i].value
    }

    #[test]
    fn two_attributes_raised_in_two_tabs_are_both_kept() {
        let base = heimr();
        let mut a = base.clone();
        sheet(&mut a).attributes[1].value += 1; // Dexterity, this tab
        a.updated = 5;
        let mut b = base.clone();
        sheet(&mut b).attributes[2].value += 1; // Stamina, the other tab
        b.updated = 7;
        let mut m = merged(reconcile(&txt(&base), &txt(&a), &txt(&b), &[], canon));
        assert_eq!(sheet(&mut m).attributes[1].value, base_value(1) + 1);
        assert_eq!(sheet(&mut m).attributes[2].value, base_value(2) + 1);
        assert_eq!(m.updated, 7, "the later edit's time");
        // Symmetric, and canonical: the other tab's merge is the same text.
        assert_eq!(
            reconcile(&txt(&base), &txt(&b), &txt(&a), &[], canon),
            Outcome::Merged(txt(&m))
        );
    }

    #[test]
    fn the_same_field_changed_twice_asks_with_both_values() {
        let base = heimr();
        let mut a = base.clone();
        a.name = "Asa the Bold".into();
        a.notes = "mine".into();
        let mut b = base.clone();
        b.name = "Asa Grey".into();
        sheet(&mut b).hp = 1;
        let (conflicts, keep_mine, take_theirs) = asked(&base, &a, &b);
        assert_eq!(
            conflicts,
            vec![Conflict {
                path: "name".into(),
                mine: "\"Asa the Bold\"".into(),
                theirs: "\"Asa Grey\"".into(),
            }]
        );
        // Either way, the fields only one side changed are kept.
        for (t, name) in [(keep_mine, "Asa the Bold"), (take_theirs, "Asa Grey")] {
            let mut d = doc(&t);
            assert_eq!(d.name, name);
            assert_eq!(d.notes, "mine");
            assert_eq!(sheet(&mut d).hp, 1);
        }
    }

    #[test]
    fn lists_of_different_lengths_are_one_value() {
        let base = heimr();
        let mut a = base.clone();
        sheet(&mut a).items.push("rope".into());
        let mut b = base.clone();
        sheet(&mut b).items.push("lamp".into());
        let (conflicts, _, _) = asked(&base, &a, &b);
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].path, "sheet.items");
    }

    #[test]
    fn whole_keys_never_mix_two_tabs_events() {
        let base =
            serde_json::json!({"events": [{"Damage": {"who": 1, "amount": 3}}], "name": "x"});
        let mine =
            serde_json::json!({"events": [{"Damage": {"who": 2, "amount": 3}}], "name": "x"});
        let theirs =
            serde_json::json!({"events": [{"Damage": {"who": 1, "amount": 5}}], "name": "y"});
        let (base, mine, theirs) = (base.to_string(), mine.to_string(), theirs.to_string());
        let tree = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
        let mut c = Vec::new();
        let v = tree(&merge3(
            &base,
            &mine,
            &theirs,
            &["events"],
            "",
            true,
            &mut c,
        ));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].path, "events");
        assert_eq!(v["events"], tree(&mine)["events"]);
        assert_eq!(v["name"], "y");
        let mut c = Vec::new();
        let mixed = tree(&merge3(&base, &mine, &theirs, &[], "", true, &mut c));
        assert!(c.is_empty(), "without `whole`, a mixed event would be made");
        assert_eq!(mixed["events"][0]["Damage"]["amount"], 5);
    }

    #[test]
    fn a_merge_the_importer_refuses_is_asked_about_whole() {
        // Here Strength's progress rose to just short of a raise; there Strength was lowered.
        // Each is valid; together the progress would already have raised the lower value.
        let base = heimr();
        let mut a = base.clone();
        sheet(&mut a).attributes[0].progress = progress_required(1) - 1;
        let mut b = base.clone();
        sheet(&mut b).attributes[0].value = -1;
        assert!(canon(&txt(&a)).is_some() && canon(&txt(&b)).is_some());
        let (conflicts, keep_mine, take_theirs) = asked(&base, &a, &b);
        assert_eq!(conflicts[0].path, "everything");
        assert_eq!((doc(&keep_mine), doc(&take_theirs)), (a, b));
        assert_eq!(
            describe("“Asa”", &conflicts),
            "“Asa” was also changed in another tab, in ways that cannot be combined. Choose which version to keep."
        );
    }

    /// Random edits on both sides: every change only one side made is in the result; a field
    /// both changed is in `conflicts` and decided as asked; nothing else differs from base.
    #[test]
    fn random_edits_on_both_sides_lose_nothing() {
        let mut src = SeededSource::new(77);
        for _ in 0..2000 {
            let base = heimr();
            let (mut a, mut b) = (base.clone(), base.clone());
            let mut touched = [[false; 6]; 2];
            for (side, d) in [&mut a, &mut b].into_iter().enumerate() {
                for _ in 0..(src.roll(4) - 1) {
                    let i = (src.roll(6) - 1) as usize;
                    sheet(d).attributes[i].value += 1 + 3 * side as i32; // 1…3 here, 4…12 there: never equal
                    touched[side][i] = true;
                }
            }
            let value = |d: &Character, i: usize| match &d.sheet {
                Sheet::Heimr(h) => h.attributes[i].value,
                _ => unreachable!(),
            };
            match reconcile(&txt(&base), &txt(&a), &txt(&b), &[], canon) {
                Outcome::Merged(m) => {
                    let m = doc(&m);
                    for (i, _) in touched[0].iter().enumerate() {
                        assert!(!(touched[0][i] && touched[1][i]));
                        let want = if touched[0][i] { &a } else { &b };
                        assert_eq!(value(&m, i), value(want, i));
                    }
                }
                Outcome::Ask {
                    conflicts,
                    keep_mine,
                    take_theirs,
                } => {
                    let (keep_mine, take_theirs) = (doc(&keep_mine), doc(&take_theirs));
                    for (i, _) in touched[0].iter().enumerate() {
                        let both = touched[0][i] && touched[1][i];
                        let named = conflicts
                            .iter()
                            .any(|c| c.path == format!("sheet.attributes.{i}.value"));
                        assert_eq!(both, named, "attribute {i}");
                        let (k, t) = if both {
                            (&a, &b)
                        } else if touched[0][i] {
                            (&a, &a)
                        } else {
                            (&b, &b)
                        };
                        assert_eq!(value(&keep_mine, i), value(k, i));
                        assert_eq!(value(&take_theirs, i), value(t, i));
                    }
                }
            }
        }
    }

    /// A fight in two tabs: a rename there and an action here are both kept; an action in
    /// each is asked about as the whole log (never interleaved), and either answer keeps the
    /// rename.
    #[test]
    fn two_tabs_on_one_fight_merge_the_name_and_ask_about_the_log() {
        use crate::rules::encounter::{Encounter, Event};
        let canon = |t: &str| canonical::<Encounter>(t, Encounter::validate);
        let mut base = Encounter::new("f".into(), "Bridge".into(), "symbaroum", 1).unwrap();
        let mut state = base.state();
        base.push(Event::Note("start".into()), &mut state, 2);
        let act = |e: &Encounter, what: &str| {
            let mut e = e.clone();
            let mut s = e.state();
            e.push(Event::Note(what.into()), &mut s, 3);
            e
        };
        let enc = |t: &str| serde_json::from_str::<Encounter>(t).unwrap();
        let text = |e: &Encounter| serde_json::to_string(e).unwrap();
        let here = act(&base, "here");
        let mut renamed = base.clone();
        renamed.name = "Bridge at dusk".into();
        let Outcome::Merged(m) = reconcile(
            &text(&base),
            &text(&here),
            &text(&renamed),
            &["events"],
            canon,
        ) else {
            panic!("no conflict expected");
        };
        let m = enc(&m);
        assert_eq!((m.name.as_str(), m.events.len()), ("Bridge at dusk", 2));
        // An action in each tab: the log is one value.
        let there = act(&renamed, "there");
        let Outcome::Ask {
            conflicts,
            keep_mine,
            take_theirs,
        } = reconcile(
            &text(&base),
            &text(&here),
            &text(&there),
            &["events"],
            canon,
        )
        else {
            panic!("a conflict expected");
        };
        assert_eq!(
            conflicts
                .iter()
                .map(|c| c.path.as_str())
                .collect::<Vec<_>>(),
            ["events"]
        );
        for (doc, last) in [(keep_mine, "here"), (take_theirs, "there")] {
            let e = enc(&doc);
            assert_eq!(e.name, "Bridge at dusk");
            assert_eq!(e.events.len(), 2);
            assert_eq!(e.events[1], Event::Note(last.into()));
        }
    }

    /// Abilities are objects with names: a list where one was removed and another added is one
    /// value, never merged position by position (which would give Agility's raise to another).
    #[test]
    fn named_items_that_moved_are_not_merged_by_position() {
        let base = heimr();
        let mut a = base.clone();
        let first = sheet(&mut a).abilities.remove(0);
        let mut dodge = first.clone();
        dodge.name = "Dodge".into();
        sheet(&mut a).abilities.push(dodge);
        let mut b = base.clone();
        sheet(&mut b).abilities[1].trained_consistency = 1;
        let (conflicts, _, take_theirs) = asked(&base, &a, &b);
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].path, "sheet.abilities");
        assert_eq!(doc(&take_theirs), b);
    }

    /// Ids are found through the map after any number of entries are forgotten (forgetting
    /// moves the last entry into the freed place).
    #[test]
    fn the_tracker_finds_each_id_after_others_are_forgotten() {
        let mut t = Tracker::new(&[], canon, canon);
        let ids: Vec<String> = (0..40).map(|i| format!("id{i}")).collect();
        for id in &ids {
            t.seen(id, format!("text of {id}"));
        }
        let mut forgotten = Vec::new();
        for gone in ids
            .iter()
            .enumerate()
            .filter(|(n, _)| n % 3 != 1)
            .map(|(_, id)| id)
        {
            t.forget(gone);
            forgotten.push(gone);
            for id in &ids {
                let base = t.find(id).and_then(|k| k.base.clone());
                if forgotten.contains(&id) {
                    assert_eq!(base, None, "{id} forgotten");
                } else {
                    assert_eq!(base, Some(format!("text of {id}")), "{id} kept");
                }
            }
        }
        assert_eq!(t.known.len(), t.at.len());
        assert_eq!(t.known.len(), 13);
        t.forget("never seen");
        assert_eq!(t.known.len(), 13);
    }

    /// Another tab stored a character the importer's limits refuse (a name of 250 characters
    /// typed there): this tab's save does not overwrite it unseen; the player is asked.
    #[test]
    fn a_stored_version_past_the_importers_limits_is_never_overwritten_unseen() {
        fn read(t: &str) -> Option<String> {
            canonical::<Character>(t, |_| Ok(()))
        }
        let store = MemoryStore::new();
        save_to(&store, KEY, &heimr()).unwrap();
        let mut t = Tracker::new(&[], read, canon);
        t.seen("abc", txt(&heimr()));
        let mut there = heimr();
        there.name = "x".repeat(250);
        store.set(KEY, &txt(&there)).unwrap();
        let mut here = heimr();
        sheet(&mut here).hp = 1;
        let Step::Ask(c) = t.write(&store, KEY, "abc", &txt(&here)).unwrap() else {
            panic!("a question expected");
        };
        assert_eq!(c[0].path, "everything");
        assert_eq!(store.raw(KEY).unwrap(), txt(&there), "nothing written");
        // Nothing edited here: this tab takes it as stored.
        let mut t2 = Tracker::new(&[], read, canon);
        t2.seen("abc", txt(&heimr()));
        assert_eq!(
            t2.arrive("abc", None, &txt(&there)),
            Step::Take(txt(&there))
        );
    }

    /// The log and the undo position move together: an undo here and an undo-then-act there
    /// is one question, never the other tab's action silently undone.
    #[test]
    fn a_fights_log_and_undo_position_are_one_value() {
        use crate::rules::encounter::{Encounter, Event};
        let canon = |t: &str| canonical::<Encounter>(t, Encounter::validate);
        let mut base = Encounter::new("f".into(), "Bridge".into(), "symbaroum", 1).unwrap();
        let mut state = base.state();
        base.push(Event::Note("one".into()), &mut state, 2);
        base.push(Event::Note("two".into()), &mut state, 2);
        let text = |e: &Encounter| serde_json::to_string(e).unwrap();
        let mut here = base.clone();
        assert!(here.undo(3));
        let mut there = base.clone();
        assert!(there.undo(3));
        let mut s = there.state();
        there.push(Event::Note("three".into()), &mut s, 4);
        let whole = ["events", "cursor"];
        match reconcile(&text(&base), &text(&here), &text(&there), &whole, canon) {
            Outcome::Ask {
                conflicts,
                keep_mine,
                take_theirs,
            } => {
                assert_eq!(conflicts.len(), 1);
                let enc = |t: &str| serde_json::from_str::<Encounter>(t).unwrap();
                let (k, t) = (enc(&keep_mine), enc(&take_theirs));
                assert_eq!((k.events, k.cursor), (here.events.clone(), here.cursor));
                assert_eq!((t.events, t.cursor), (there.events.clone(), there.cursor));
            }
            other => panic!("a question expected: {other:?}"),
        }
        // Only one tab touched the fight: its log and position both come across.
        let Outcome::Merged(m) =
            reconcile(&text(&base), &text(&base), &text(&there), &whole, canon)
        else {
            panic!("no question expected");
        };
        assert_eq!(m, text(&there));
    }

    const KEY: &str = "rollsheet.char.abc";

    fn tab(store: &MemoryStore) -> (Tracker, Character) {
        let mut t = Tracker::new(&[], canon, canon);
        let Ok(Loaded::Ok(c)) = load_key::<Character>(store, KEY, 0) else {
            panic!("stored");
        };
        t.seen("abc", txt(&c));
        (t, c)
    }

    /// Saving again after our own write reads the stored text back and compares it: no
    /// parsing on the path of every tap in a fight.
    #[test]
    fn our_own_last_write_is_recognised_without_parsing() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static PARSED: AtomicUsize = AtomicUsize::new(0);
        fn counting(t: &str) -> Option<String> {
            PARSED.fetch_add(1, Ordering::SeqCst);
            canon(t)
        }
        let store = MemoryStore::new();
        let mut t = Tracker::new(&[], counting, canon);
        let mut c = heimr();
        for hp in 0..5 {
            sheet(&mut c).hp = hp;
            assert_eq!(t.write(&store, KEY, "abc", &txt(&c)).unwrap(), Step::Same);
        }
        assert_eq!(PARSED.load(Ordering::SeqCst), 0);
        // Another tab's write is parsed.
        let mut other = c.clone();
        other.notes = "there".into();
        store.set(KEY, &txt(&other)).unwrap();
        assert_eq!(
            t.write(&store, KEY, "abc", &txt(&c)).unwrap(),
            Step::Take(txt(&other))
        );
        assert!(PARSED.load(Ordering::SeqCst) > 0);
    }

    /// The player's race: + Dexterity in tab A and + Stamina in tab B before either has seen
    /// the other's save. Whichever order the saves and the storage events come in, both
    /// raises end up stored and on both pages.
    #[test]
    fn two_tabs_raising_two_attributes_keep_both() {
        for b_sees_event_before_saving in [false, true] {
            let store = MemoryStore::new();
            save_to(&store, KEY, &heimr()).unwrap();
            let (mut ta, mut a) = tab(&store);
            let (mut tb, mut b) = tab(&store);
            sheet(&mut a).attributes[1].value += 1;
            sheet(&mut b).attributes[2].value += 1;
            assert_eq!(ta.write(&store, KEY, "abc", &txt(&a)).unwrap(), Step::Same);
            let stored_a = store.raw(KEY).unwrap();
            if b_sees_event_before_saving {
                match tb.arrive("abc", Some(&txt(&b)), &stored_a) {
                    Step::Take(m) => b = doc(&m),
                    other => panic!("{other:?}"),
                }
                assert_eq!(tb.write(&store, KEY, "abc", &txt(&b)).unwrap(), Step::Same);
            } else {
                match tb.write(&store, KEY, "abc", &txt(&b)).unwrap() {
                    Step::Take(m) => b = doc(&m),
                    other => panic!("{other:?}"),
                }
            }
            // Tab A, with nothing unsaved, takes what B stored.
            let stored = store.raw(KEY).unwrap();
            match ta.arrive("abc", None, &stored) {
                Step::Take(m) => a = doc(&m),
                other => panic!("{other:?}"),
            }
            for d in [&mut a, &mut b, &mut doc(&stored)] {
                assert_eq!(sheet(d).attributes[1].value, base_value(1) + 1);
                assert_eq!(sheet(d).attributes[2].value, base_value(2) + 1);
            }
            // Its own write, heard back, changes nothing.
            assert_eq!(tb.arrive("abc", Some(&txt(&b)), &stored), Step::Same);
        }
    }

    #[test]
    fn a_conflict_writes_nothing_until_answered_and_keeps_later_edits() {
        let store = MemoryStore::new();
        save_to(&store, KEY, &heimr()).unwrap();
        let (mut ta, mut a) = tab(&store);
        let (mut tb, mut b) = tab(&store);
        a.name = "A".into();
        ta.write(&store, KEY, "abc", &txt(&a)).unwrap();
        let stored_a = store.raw(KEY).unwrap();
        b.name = "B".into();
        let Step::Ask(c) = tb.write(&store, KEY, "abc", &txt(&b)).unwrap() else {
            panic!("a conflict expected");
        };
        assert_eq!(c[0].path, "name");
        assert_eq!(
            describe("“Asa”", &c),
            "“Asa” was also changed in another tab. Both changed: name (here \"B\", there \"A\"). Every other change is kept."
        );
        let attr = Conflict {
            path: "sheet.attributes.1.value".into(),
            mine: "13".into(),
            theirs: "12".into(),
        };
        assert_eq!(attr.field(), "attributes #2");
        assert!(tb.is_pending("abc"));
        assert_eq!(store.raw(KEY).unwrap(), stored_a, "nothing written");
        assert_eq!(
            tb.write(&store, KEY, "abc", &txt(&b)).unwrap(),
            Step::Ask(Vec::new())
        );
        // An edit made while the question is open survives either answer.
        b.notes = "later".into();
        for keep in [true, false] {
            store.set(KEY, &stored_a).unwrap();
            let mut t2 = Tracker::new(&[], canon, canon);
            t2.seen("abc", txt(&heimr()));
            t2.write(&store, KEY, "abc", &txt(&b)).unwrap();
            let d = doc(&t2.resolve("abc", &txt(&b), keep).unwrap());
            assert_eq!(d.name, if keep { "B" } else { "A" });
            assert_eq!(d.notes, "later");
            assert_eq!(t2.write(&store, KEY, "abc", &txt(&d)).unwrap(), Step::Same);
        }
        assert!(tb.resolve("abc", &txt(&b), true).is_some());
        assert!(tb.resolve("abc", &txt(&b), true).is_none(), "answered once");
    }

    /// An import of four characters (two replacing stored ones) written as the app writes it
    /// (the index, then each character through the tracker), cut off by a full storage after
    /// every possible number of writes: each stored character is still whole, in its old or
    /// its new version, nothing is set aside as unreadable, and once there is room again the
    /// retry stores the rest.
    #[test]
    fn a_batch_cut_off_by_a_full_storage_leaves_every_entry_whole() {
        let named = |id: &str, name: &str| {
            let mut c = heimr();
            c.id = id.into();
            c.name = name.into();
            c
        };
        let key = |id: &str| format!("rollsheet.char.{id}");
        for cut in 0..=5 {
            let store = MemoryStore::new();
            let mut t = Tracker::new(&[], canon, canon);
            for id in ["a", "b", "c"] {
                let c = named(id, "old");
                save_to(&store, &key(id), &c).unwrap();
                t.seen(id, txt(&c));
            }
            save_index_with(&store, vec!["a".into(), "b".into(), "c".into()], 0).unwrap();
            let batch: Vec<Character> = ["a", "b", "d", "e"]
                .iter()
                .map(|id| named(id, "new"))
                .collect();
            store.writes_left.set(Some(cut));
            let ids = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
            let mut unsaved = Vec::new();
            let index_ok = save_index_with(&store, ids.clone(), 0).is_ok();
            for c in &batch {
                if t.write(&store, &key(&c.id), &c.id, &txt(c)).is_err() {
                    unsaved.push(c.clone());
                }
            }
            assert_eq!(unsaved.len(), 4 - cut.saturating_sub(1).min(4), "cut {cut}");
            let loaded = load_roster(&store, 0).unwrap();
            assert!(loaded.quarantined.is_empty(), "cut {cut}");
            for id in ["a", "b", "c"] {
                let c = loaded.characters.iter().find(|c| c.id == id).unwrap();
                assert!(
                    c.name == "old" || (c.name == "new" && id != "c"),
                    "cut {cut}"
                );
                assert_eq!(c, &named(id, &c.name), "whole");
            }
            for c in &loaded.characters {
                assert!(c.name == "old" || c.name == "new");
            }
            // Room again: the retry stores what was left.
            store.writes_left.set(None);
            if !index_ok {
                save_index_with(&store, ids.clone(), 0).unwrap();
            }
            for c in &unsaved {
                assert_eq!(
                    t.write(&store, &key(&c.id), &c.id, &txt(c)).unwrap(),
                    Step::Same
                );
            }
            let after = load_roster(&store, 0).unwrap().characters;
            let got: Vec<(&str, &str)> = after
                .iter()
                .map(|c| (c.id.as_str(), c.name.as_str()))
                .collect();
            assert_eq!(
                got,
                [
                    ("a", "new"),
                    ("b", "new"),
                    ("c", "old"),
                    ("d", "new"),
                    ("e", "new")
                ]
            );
        }
    }
}
