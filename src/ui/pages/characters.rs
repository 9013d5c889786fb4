use crate::rules::heimr::share_xp;
use crate::storage::character::{Character, Sheet, SYSTEMS};
use crate::storage::transfer::{export_all, export_one, file_name, parse_backup, MAX_IMPORT_BYTES};
use crate::ui::files;
use crate::ui::kit::{self, flag};
use crate::ui::roster::Roster;
use crate::ui::router::{Link, Location};
use crate::ui::share::{self, ScanButton, Share};
use crate::ui::state::{now_ms, Notices, SettingsState};
use leptos::prelude::*;

/// Roster entries drawn at a time. Each costs a phone a few milliseconds to draw and lay out,
/// and a full phone holds some ten thousand characters.
const PAGE: usize = 50;

/// Which roster entries are on screen: those whose name holds `find` (in any case), the first
/// `limit` of them. Sharing Heimr XP offers the same ones.
#[derive(Clone, Copy)]
struct Shown {
    find: RwSignal<String>,
    limit: RwSignal<usize>,
}

impl Shown {
    /// The matching entries: the first `limit` of them (cloned) and how many match in all.
    fn of(self, cs: &[Character]) -> (Vec<Character>, usize) {
        let find = self.find.with(|f| f.trim().to_lowercase());
        let limit = self.limit.get();
        let mut matching = cs
            .iter()
            .filter(|c| find.is_empty() || c.name.to_lowercase().contains(&find));
        let first: Vec<Character> = matching.by_ref().take(limit).cloned().collect();
        let all = first.len() + matching.count();
        (first, all)
    }
}

/// `n` names in a sentence: the first ten, then how many more (a backup can hold thousands,
/// and laying out a paragraph of them took seconds).
fn some_of(names: impl Iterator<Item = String>, n: usize) -> String {
    const SHOWN: usize = 10;
    let mut s = names.take(SHOWN).collect::<Vec<_>>().join(", ");
    if n > SHOWN {
        s += &format!(" and {} more", n - SHOWN);
    }
    s
}

/// The roster: every character on this phone, creating, importing and backing up.
#[component]
pub fn CharactersPage() -> impl IntoView {
    let roster = expect_context::<Roster>();
    let count = move || roster.chars.with(Vec::len);
    let shown = Shown {
        find: RwSignal::new(String::new()),
        limit: RwSignal::new(PAGE),
    };
    // Matching entries not drawn yet.
    let more = move || {
        let (first, all) = roster.chars.with(|cs| shown.of(cs));
        all - first.len()
    };
    view! {
        <section class="page">
            <h1>"Characters"</h1>
            <CreateCharacter/>
            <Show when=move || roster.deleted.with(|d| !d.is_empty())>
                <div class="card undo-row" role="status">
                    <span>{move || roster.deleted.with(|d| d.last().map(|(_, c)| format!("Deleted “{}”.", c.name)))}</span>
                    <button class="btn small primary" on:click=move |_| roster.undo_delete()>"Undo"</button>
                </div>
            </Show>
            <Show when=move || { count() == 0 }>
                <div class="card empty-state">
                    <p>"No characters yet."</p>
                    <p class="muted">"Create one above or import a file. The dice roller works without a character."</p>
                </div>
            </Show>
            <Show when=move || { count() > PAGE }>
                <label class="field-label" for="roster-find">"Find a character"</label>
                <input id="roster-find" type="search" autocomplete="off" prop:value=move || shown.find.get()
                    on:input=move |ev| { shown.find.set(event_target_value(&ev)); shown.limit.set(PAGE); }/>
            </Show>
            <ul class="roster">
                // Rebuilt whole when the roster changes (only rename, duplicate, delete and import
                // change it while this page shows): a keyed list costs more code than it saves.
                {move || roster.chars.with(|cs| shown.of(cs).0).into_iter().map(|c| view! { <RosterEntry c/> }).collect_view()}
                // Rare and never edited here: a plain list, not a keyed one (smaller code).
                {move || roster.newer.get().into_iter().map(|n| view! {
                    <li class="card roster-entry read-only">
                        <strong>{n.name}</strong>
                        <p class="muted">{format!("Saved by a newer Rollsheet (format {}). Read-only until you update the app.", n.found)}</p>
                        <details><summary>"View saved data"</summary><pre class="raw">{n.raw}</pre></details>
                    </li>
                }).collect_view()}
            </ul>
            <Show when=move || { more() > 0 }>
                <button class="btn wide" on:click=move |_| shown.limit.update(|n| *n += PAGE)>
                    {move || format!("Show {} more ({} not shown)", more().min(PAGE), more())}
                </button>
            </Show>
            <XpShare shown/>
            <Backup/>
            <Import/>
        </section>
    }
}

#[component]
fn CreateCharacter() -> impl IntoView {
    let roster = expect_context::<Roster>();
    let location = expect_context::<Location>();
    let (open, set_open) = signal(false);
    let (name, set_name) = signal(String::new());
    view! {
        <Show when=move || open.get() fallback=move || view! {
            <button class="btn primary wide" on:click=move |_| set_open.set(true)>"New character"</button>
        }>
            <div class="card">
                <h2>"New character"</h2>
                <label class="field-label" for="new-name">"Name"</label>
                <input id="new-name" type="text" maxlength="200" prop:value=move || name.get() on:input=move |ev| set_name.set(event_target_value(&ev))/>
                <p class="field-label">"Rule system"</p>
                <div class="system-list">
                    {SYSTEMS.map(|s| view! {
                        <button class="btn" disabled=!s.available on:click=move |_| {
                            if let Some(id) = roster.create(s.id, &name.get_untracked()) {
                                set_open.set(false);
                                set_name.set(String::new());
                                location.navigate(&format!("/c/{id}"));
                            }
                        }>
                            {s.name}{(!s.available).then_some(" (coming)")}
                        </button>
                    }).collect_view()}
                </div>
                <button class="btn" on:click=move |_| set_open.set(false)>"Cancel"</button>
            </div>
        </Show>
    }
}

#[component]
fn RosterEntry(c: Character) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let id = StoredValue::new(c.id.clone());
    let (renaming, set_renaming) = signal(false);
    let (draft, set_draft) = signal(c.name.clone());
    let shown_name = StoredValue::new(c.name.clone());
    let href = format!("/c/{}", c.id);
    let share = expect_context::<Share>();
    let offer = move |_| {
        if let Some(c) = roster.get(&id.get_value()) {
            share.offer(&c.name, file_name(&c.name), export_one(&c), false);
        }
    };
    let rename = move || {
        let name = draft.get_untracked();
        if !name.trim().is_empty() {
            roster.update(&id.get_value(), |c| {
                c.rename(&name);
            });
        }
        set_renaming.set(false);
    };
    view! {
        <li class="card roster-entry">
            <Show when=move || renaming.get() fallback=move || {
                let (name, href) = (shown_name.get_value(), href.clone());
                view! { <Link href class="roster-name">{name}</Link> }
            }>
                <div class="row">
                    <input type="text" maxlength="200" aria-label="New name" prop:value=move || draft.get()
                        on:input=move |ev| set_draft.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { rename() }/>
                    <button class="btn primary" on:click=move |_| rename()>"Save"</button>
                </div>
            </Show>
            <p class="muted">{c.sheet.system().name}" · "{c.sheet.key_figure()}</p>
            <div class="actions">
                <button class="btn small" on:click=move |_| set_renaming.set(true)>"Rename"</button>
                <button class="btn small" on:click=move |_| { roster.duplicate(&id.get_value()); }>"Duplicate"</button>
                <button class="btn small" on:click=offer>"Share"</button>
                <button class="btn small danger" on:click=move |_| roster.delete(&id.get_value())>"Delete"</button>
            </div>
        </li>
    }
}

#[component]
fn Backup() -> impl IntoView {
    let roster = expect_context::<Roster>();
    let settings = expect_context::<SettingsState>();
    let notices = expect_context::<Notices>();
    let can_share = files::can_share_files();
    let share = expect_context::<Share>();
    let backup_text = move || export_all(&roster.chars.get_untracked(), now_ms());
    let name = move || format!("rollsheet-backup-{}.json", date(now_ms()));
    let done = move || settings.record_backup(now_ms());
    view! {
        <section class="card">
            <h2>"Backup"</h2>
            <p class="muted">{move || settings.0.with(|s| match s.last_backup {
                Some(t) => format!("Last full backup: {}.", date(t)),
                None => "No full backup yet.".to_owned(),
            })}</p>
            <Show when=move || settings.0.with(|s| s.backup_due(now_ms())) && roster.chars.with(|c| !c.is_empty())>
                <p class="nudge" role="note">"Time for a backup: export all characters and keep the file somewhere safe."</p>
            </Show>
            <div class="actions">
                <button class="btn" disabled=move || roster.chars.with(Vec::is_empty) on:click=move |_| {
                    match files::download(&name(), &backup_text()) {
                        Ok(()) => done(),
                        Err(e) => notices.error(format!("Export failed: {e}")),
                    }
                }>"Export all"</button>
                {can_share.then(|| view! {
                    <button class="btn" disabled=move || roster.chars.with(Vec::is_empty) on:click=move |_| {
                        let (n, text) = (name(), backup_text());
                        leptos::task::spawn_local(async move {
                            match files::share(&n, &text).await {
                                Ok(true) => done(),
                                Ok(false) => {}
                                Err(e) => notices.error(format!("Sharing failed: {e}")),
                            }
                        });
                    }>"Share all"</button>
                })}
                <button class="btn" disabled=move || roster.chars.with(Vec::is_empty) on:click=move |_| {
                    share.offer("all characters", name(), backup_text(), true);
                }>"Link for all"</button>
            </div>
        </section>
    }
}

/// YYYY-MM-DD in local time.
fn date(ms: u64) -> String {
    let d = js_sys::Date::new(&(ms as f64).into());
    format!(
        "{:04}-{:02}-{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date()
    )
}

#[component]
fn Import() -> impl IntoView {
    let roster = expect_context::<Roster>();
    let share = expect_context::<Share>();
    let (text, set_text) = signal(String::new());
    let (message, set_message) = signal(None::<(bool, String)>);
    let pending = RwSignal::new(Vec::<Character>::new());
    // From a link: nothing is stored before the player says so, even without a conflict.
    let from_link = RwSignal::new(false);
    let conflicts = move || {
        let mut ids = std::collections::BTreeSet::new();
        roster.chars.with(|cs| {
            for c in cs {
                ids.insert(c.id.clone());
            }
        });
        pending.with(|p| {
            p.iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| c.name.clone())
                .collect::<Vec<_>>()
        })
    };
    // What was left out of a backup, said after the import.
    let left_out = RwSignal::new(String::new());
    let finish = move |list: Vec<Character>| {
        let n = list.len();
        roster.add_imported(list);
        pending.set(Vec::new());
        set_text.set(String::new());
        share::clear_fragment();
        set_message.set(Some((
            false,
            format!(
                "Imported {n} character{}.{}",
                if n == 1 { "" } else { "s" },
                left_out.get_untracked()
            ),
        )));
    };
    let check = move |input: String, link: bool| match parse_backup(&input) {
        Err(e) => {
            share::clear_fragment();
            set_message.set(Some((true, e.to_string())));
        }
        Ok(parsed) => {
            set_message.set(None);
            let mut notes: Vec<String> = parsed.left_out.iter().map(ToString::to_string).collect();
            // An id held by a read-only entry from a newer app is never overwritten: the
            // import is kept beside it.
            let newer: Vec<String> = roster
                .newer
                .with_untracked(|n| n.iter().map(|e| e.key.clone()).collect());
            let list: Vec<Character> = parsed
                .characters
                .into_iter()
                .map(|c| {
                    if newer.contains(&crate::storage::character::key_of(&c.id)) {
                        notes.push(format!(
                            "“{}” was kept beside the read-only copy from a newer Rollsheet.",
                            crate::storage::transfer::short(&c.name)
                        ));
                        roster.as_new(c)
                    } else {
                        c
                    }
                })
                .collect();
            left_out.set(if notes.is_empty() {
                String::new()
            } else {
                format!(" Left out or changed: {}", notes.join(" "))
            });
            from_link.set(link);
            pending.set(list);
            if !link && conflicts().is_empty() {
                finish(pending.get_untracked());
            }
        }
    };
    // A link opened, scanned or pasted: its characters wait here for the player's answer.
    let import_text = share.importer(false, check);
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        leptos::task::spawn_local(async move {
            match files::read_picked(&input, MAX_IMPORT_BYTES).await {
                Ok(Some(t)) => check(t, false),
                Ok(None) => {}
                Err(e) => set_message.set(Some((true, e))),
            }
            input.set_value("");
        });
    };
    let cancel = move |_| {
        pending.set(Vec::new());
        share::clear_fragment();
        set_message.set(Some((false, "Import cancelled; nothing changed.".into())));
    };
    let names = move || {
        pending.with(|p| {
            some_of(
                p.iter().map(|c| {
                    format!(
                        "“{}” ({})",
                        crate::storage::transfer::short(&c.name),
                        c.sheet.system().name
                    )
                }),
                p.len(),
            )
        })
    };
    view! {
        <section class="card">
            <h2>"Import"</h2>
            <label class="btn file-btn">
                "Choose a file…"
                <input type="file" accept=".json,application/json" class="visually-hidden" on:change=on_file/>
            </label>
            <ScanButton/>
            <label class="field-label" for="import-text">"…or paste exported text or a link"</label>
            <textarea id="import-text" rows="3" prop:value=move || text.get() on:input=move |ev| set_text.set(event_target_value(&ev)) on:paste=share::Share::paste(import_text)></textarea>
            <button class="btn" disabled=move || text.with(|t| t.trim().is_empty()) on:click=move |_| import_text(text.get_untracked())>"Import text"</button>
            {move || message.get().map(|(error, m)| view! {
                <p class:field-error=error class:ok=!error role=if error { "alert" } else { "status" }>{m}</p>
            })}
            <Show when=move || pending.with(|p| !p.is_empty()) && (from_link.get() || !conflicts().is_empty())>
                <div class="conflict" role="alertdialog" aria-label=kit::text(move || if conflicts().is_empty() { "Import from a link".into() } else { "Already on this phone".into() })>
                    <p>{kit::text(move || {
                        let known = conflicts();
                        let from = if from_link.get() { format!("A link holds {}. ", names()) } else { String::new() };
                        if known.is_empty() {
                            format!("{from}Import it to this phone?")
                        } else {
                            format!("{from}Already on this phone: {}. Replace them, or keep both?", some_of(known.iter().cloned(), known.len()))
                        }
                    })}</p>
                    <div class="actions">
                        <button class="btn primary" hidden=flag(move || !conflicts().is_empty()) on:click=move |_| finish(pending.get_untracked())>"Import"</button>
                        <button class="btn danger" hidden=flag(move || conflicts().is_empty()) on:click=move |_| finish(pending.get_untracked())>"Replace"</button>
                        <button class="btn primary" hidden=flag(move || conflicts().is_empty()) on:click=move |_| {
                            let list = pending.get_untracked().into_iter()
                                .map(|c| if roster.get(&c.id).is_some() { roster.as_new(c) } else { c })
                                .collect();
                            finish(list);
                        }>"Keep both"</button>
                        <button class="btn" on:click=cancel>"Cancel"</button>
                    </div>
                </div>
            </Show>
        </section>
    }
}

/// Heimr XP sharing: an encounter's XP split among the characters present, the rest carried.
#[component]
fn XpShare(shown: Shown) -> impl IntoView {
    let roster = expect_context::<Roster>();
    let present = RwSignal::new(Vec::<String>::new());
    // The Heimr characters on screen in the roster, and those ticked (whatever the list shows
    // now), in the roster's order.
    let heimr = move || {
        roster.chars.with(|cs| {
            let mut on_screen = std::collections::BTreeSet::new();
            for c in shown.of(cs).0 {
                on_screen.insert(c.id);
            }
            present.with(|p| {
                cs.iter()
                    .filter(|c| matches!(c.sheet, Sheet::Heimr(_)))
                    .filter(|c| on_screen.contains(&c.id) || p.contains(&c.id))
                    .map(|c| (c.id.clone(), c.name.clone()))
                    .collect::<Vec<_>>()
            })
        })
    };
    let (xp, set_xp) = signal(String::new());
    // The party's remainder, kept once: paid out to whoever is present at the next share.
    let carried = move || roster.xp_carried.get();
    // Only characters that still exist count (one may be deleted after being ticked).
    let here = move || {
        present.with(|p| {
            roster.chars.with(|cs| {
                cs.iter()
                    .filter(|c| matches!(c.sheet, Sheet::Heimr(_)) && p.contains(&c.id))
                    .map(|c| c.id.clone())
                    .collect::<Vec<_>>()
            })
        })
    };
    let share = move || {
        share_xp(
            xp.with(|x| x.trim().parse().unwrap_or(0)),
            carried(),
            here().len() as u32,
        )
    };
    let (done, set_done) = signal(None::<String>);
    view! {
        <Show when=move || !heimr().is_empty()>
            <section class="card xp-share">
                <h2>"Share Heimr XP"</h2>
                <label class="field-label" for="xp-amount">"Encounter XP"</label>
                <input id="xp-amount" type="number" inputmode="numeric" min="0" prop:value=move || xp.get()
                    on:input=move |ev| set_xp.set(event_target_value(&ev))/>
                <p class="field-label">"Present"</p>
                {move || heimr().into_iter().map(|(id, name)| {
                    let id2 = id.clone();
                    view! {
                        <label class="check">
                            <input type="checkbox" prop:checked=move || present.with(|p| p.contains(&id))
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    present.update(|p| { p.retain(|x| x != &id2); if on { p.push(id2.clone()); } });
                                }/>
                            <span>{name}</span>
                        </label>
                    }
                }).collect_view()}
                <p data-testid="xp-preview">{move || {
                    let s = share();
                    format!("Each gets {} XP; {} carried to the next share (including {} carried from before).", s.each, s.remainder, carried())
                }}</p>
                <button class="btn primary" disabled=move || here().is_empty() on:click=move |_| {
                    let s = share();
                    let ids = untrack(here);
                    // All or nothing: first check that every share fits what a sheet may hold.
                    let refused = ids.iter().find_map(|id| {
                        let c = roster.get(id)?;
                        let Sheet::Heimr(mut h) = c.sheet else { return None };
                        h.add_xp(s.each).err().map(|e| format!("{}: {e}", c.name))
                    });
                    if let Some(why) = refused {
                        set_done.set(Some(format!("Not shared: {why}. Nothing was changed.")));
                        return;
                    }
                    for id in ids {
                        roster.update(&id, |c| {
                            if let Sheet::Heimr(h) = &mut c.sheet {
                                let _ = h.add_xp(s.each);
                            }
                        });
                    }
                    roster.set_xp_carried(s.remainder);
                    set_done.set(Some(format!("Shared: {} XP each, {} carried.", s.each, s.remainder)));
                    set_xp.set(String::new());
                }>"Share"</button>
                {move || done.get().map(|d| view! { <p role="status" class="ok">{d}</p> })}
            </section>
        </Show>
    }
}
