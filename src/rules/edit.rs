//! Edits a player makes to a sheet, below the views: each system lists its edits as an enum and
//! applies them in its rules module, so a tap and a test run the same code. An edit that would
//! make a sheet its own importer refuses is clamped here (or refused with a reason), never
//! left for a backup to trip over.

/// A sheet whose edits are data: the views send `Edit`s, the property tests generate them.
pub trait Edits {
    type Edit;
    /// Applies one edit; `Err` says why nothing changed (the sheet is left as it was).
    fn apply(&mut self, edit: Self::Edit) -> Result<(), String>;

    /// The fight's action this edit stands for (a death save, a breather, a weapon taken in
    /// hand), or `None`: while the character is in a running fight, such an edit is not made
    /// on the sheet but in the fight, where the referee prices and limits it (refused here:
    /// [`in_fight`]).
    fn fight_action(_edit: &Self::Edit) -> Option<&'static str> {
        None
    }

    /// Brings a sheet stored by an earlier version back within what `validate` accepts, where
    /// that version's edits let it out: each value to its nearest allowed one, nothing removed.
    fn repair(&mut self) {}
}

/// Why `edit` is not made on the sheet of a character in the running fight `fight` (its name):
/// it is that fight's action; `None` when the sheet takes it.
pub fn in_fight<S: Edits>(edit: &S::Edit, fight: Option<&str>) -> Option<String> {
    let (what, fight) = (S::fight_action(edit)?, fight?);
    Some(format!(
        "In a running fight ({fight}), {what} is taken there: open the fight, where the rules price and limit it"
    ))
}

/// The longest entry of a free list (a skill, an item, a condition), in characters.
pub const ENTRY_LIMIT: usize = 200;
/// [`ENTRY_LIMIT`] as a field's `maxlength` text (a number attribute would compile one more
/// attribute type into the app; a test keeps the two equal).
pub const ENTRY_MAX: &str = "200";
/// The most entries a free list holds.
pub const LIST_LIMIT: usize = 200;

/// An edit of a free list of short texts, as the list editor makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListEdit {
    /// Adds the text, trimmed; an empty text adds nothing.
    Add(String),
    /// Removes the entry at this position (nothing if there is none).
    Remove(usize),
}

impl ListEdit {
    pub fn apply(self, list: &mut Vec<String>) -> Result<(), String> {
        match self {
            ListEdit::Add(text) => {
                let text = entry(&text, ENTRY_LIMIT);
                if text.is_empty() {
                    return Ok(());
                }
                room(list.len(), LIST_LIMIT, "entries")?;
                list.push(text);
            }
            ListEdit::Remove(i) => {
                if i < list.len() {
                    list.remove(i);
                }
            }
        }
        Ok(())
    }
}

/// Room for one more entry in a list of `len` that holds at most `limit` `what`s.
pub fn room(len: usize, limit: usize, what: &str) -> Result<(), String> {
    if len >= limit {
        return Err(format!("A sheet holds at most {limit} {what}"));
    }
    Ok(())
}

/// A typed text as a sheet keeps it: trimmed, cut at `limit` characters.
pub fn entry(t: &str, limit: usize) -> String {
    t.trim().chars().take(limit).collect()
}

/// `name` with a suffix such as " (copy)", the name cut so both fit `limit` characters.
pub fn suffixed(name: &str, suffix: &str, limit: usize) -> String {
    let keep = limit.saturating_sub(suffix.chars().count());
    let base: String = name.chars().take(keep).collect();
    format!("{}{suffix}", base.trim_end())
}

/// Checks a free list against the limits the list editor keeps.
pub fn check_list(list: &[String], what: &str) -> Result<(), String> {
    if list.len() > LIST_LIMIT {
        return Err(format!("{what}: more than {LIST_LIMIT} entries"));
    }
    if list.iter().any(|e| e.chars().count() > ENTRY_LIMIT) {
        return Err(format!(
            "{what}: an entry longer than {ENTRY_LIMIT} characters"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_trimmed_and_cut_entries_and_removes_by_position() {
        let mut l = Vec::new();
        ListEdit::Add("  Sword ".into()).apply(&mut l).unwrap();
        ListEdit::Add("   ".into()).apply(&mut l).unwrap();
        ListEdit::Add("x".repeat(ENTRY_LIMIT + 5))
            .apply(&mut l)
            .unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0], "Sword");
        assert_eq!(l[1].chars().count(), ENTRY_LIMIT);
        check_list(&l, "items").unwrap();
        ListEdit::Remove(7).apply(&mut l).unwrap();
        ListEdit::Remove(0).apply(&mut l).unwrap();
        assert_eq!(l.len(), 1);
    }

    #[test]
    fn the_fields_maxlength_is_the_limit() {
        assert_eq!(ENTRY_MAX, ENTRY_LIMIT.to_string());
    }

    #[test]
    fn a_full_list_refuses_one_more() {
        let mut l = vec!["a".to_string(); LIST_LIMIT];
        assert!(ListEdit::Add("b".into()).apply(&mut l).is_err());
        assert_eq!(l.len(), LIST_LIMIT);
        l.push("c".into());
        assert!(check_list(&l, "items").is_err());
    }
}
