use crate::storage::settings::Theme;
use crate::storage::usage::{Usage, ADVICE, WARN_PERCENT};
use crate::storage::versioned::quarantined_keys;
use crate::storage::{KeyValueStore, LocalStore};
use crate::ui::files;
use crate::ui::state::{Notices, SettingsState, BLOCKED};
use leptos::prelude::*;

#[component]
pub fn SettingsPage() -> impl IntoView {
    let settings = expect_context::<SettingsState>();
    let current = move || settings.0.with(|s| s.theme);
    view! {
        <section class="page">
            <h1>"Settings"</h1>
            <div class="card">
                <h2 id="theme-title">"Theme"</h2>
                <div class="segmented" role="radiogroup" aria-labelledby="theme-title">
                    {Theme::ALL.map(|theme| view! {
                        <button role="radio" class="btn"
                            aria-checked=move || if current() == theme { "true" } else { "false" }
                            on:click=move |_| settings.set_theme(theme)>
                            {theme.label()}
                        </button>
                    }).collect_view()}
                </div>
                <p class="muted">"Automatic follows your phone's light or dark mode."</p>
            </div>
            <StorageInfo/>
            <Quarantine/>
            <div class="card">
                <h2>"About"</h2>
                <p>"Rollsheet version " <span data-testid="version">{env!("CARGO_PKG_VERSION")}</span></p>
                <p class="muted">"Your data stays on this device: no server, no account. The only connections are the direct ones you make at a live table by scanning another phone’s code. Rollsheet works offline once opened."</p>
            </div>
        </section>
    }
}

#[component]
fn StorageInfo() -> impl IntoView {
    let settings = expect_context::<SettingsState>();
    let persisted = LocalResource::new(crate::ui::persist::is_persisted);
    // Measured once, when the page opens.
    let usage = Usage::measure(&LocalStore).ok();
    let warn = usage.is_some_and(|u| u.nearly_full());
    view! {
        <div class="card">
            <h2>"Storage"</h2>
            <p data-testid="usage">{usage.map_or(BLOCKED.to_owned(), |u| u.summary())}</p>
            <meter min="0" max="100" low="60" high=WARN_PERCENT optimum="0"
                value=usage.map_or(100, |u| u.percent()) aria-label="Storage used"></meter>
            <p class="muted" data-testid="usage-parts">{usage.map(|u| u.parts())}</p>
            {warn.then_some(view! { <p class="nudge" role="note" data-testid="usage-warning">{ADVICE}</p> })}
            <p data-testid="persisted">{move || match persisted.get() {
                None => "Checking whether storage is kept…".to_owned(),
                Some(Some(true)) => "Kept: the browser will not clear this app's data to free space.".to_owned(),
                Some(Some(false)) => "Not guaranteed: the browser may clear this app's data when space runs low. Install the app and keep backups.".to_owned(),
                Some(None) => "This browser cannot say whether storage is kept.".to_owned(),
            }}</p>
            <p data-testid="last-backup">{move || settings.0.with(|s| match s.last_backup {
                None => "No full backup yet (Characters → Backup).".to_owned(),
                Some(t) => {
                    let d = js_sys::Date::new(&(t as f64).into());
                    format!("Last full backup: {:04}-{:02}-{:02}.", d.get_full_year(), d.get_month() + 1, d.get_date())
                }
            })}</p>
            <Show when=move || settings.0.with(|s| s.backup_due(crate::ui::state::now_ms()))>
                <p class="nudge" role="note" data-testid="backup-nudge">"A backup is due: on Characters, use “Export all” and keep the file somewhere safe (it is the only copy outside this browser)."</p>
            </Show>
        </div>
    }
}

/// Saved entries that could not be read: kept aside, never deleted unless the player asks.
#[component]
fn Quarantine() -> impl IntoView {
    let notices = expect_context::<Notices>();
    let keys = RwSignal::new(quarantined_keys(&LocalStore).unwrap_or_default());
    let viewing = RwSignal::new(None::<String>);
    let raw = move |k: &str| LocalStore.get(k).ok().flatten().unwrap_or_default();
    view! {
        <Show when=move || keys.with(|k| !k.is_empty())>
            <div class="card">
                <h2>"Unreadable saved data"</h2>
                <p class="muted">"These entries could not be read and were set aside untouched. Export them to keep or repair them."</p>
                <ul class="quarantine">
                    {move || keys.get().into_iter().map(|k| {
                            let k = StoredValue::new(k);
                            view! {
                                <li>
                                    <code>{k.get_value()}</code>
                                    <div class="actions">
                                        <button class="btn small" on:click=move |_| viewing.set(Some(k.get_value()))>"View"</button>
                                        <button class="btn small" on:click=move |_| {
                                            if let Err(e) = files::download(&format!("{}.json", k.get_value()), &raw(&k.get_value())) {
                                                notices.error(format!("Export failed: {e}"));
                                            }
                                        }>"Export"</button>
                                        <button class="btn small danger" on:click=move |_| {
                                            let ok = window().confirm_with_message("Delete this unreadable entry for good?").unwrap_or(false);
                                            if ok {
                                                match LocalStore.remove(&k.get_value()) {
                                                    Ok(()) => keys.update(|ks| ks.retain(|x| *x != k.get_value())),
                                                    Err(e) => notices.error(format!("Not deleted: {e}")),
                                                }
                                            }
                                        }>"Delete"</button>
                                    </div>
                                    <Show when=move || viewing.get().as_deref() == Some(k.get_value().as_str())>
                                        <pre class="raw">{raw(&k.get_value())}</pre>
                                    </Show>
                                </li>
                            }
                        }).collect_view()}

                </ul>
            </div>
        </Show>
    }
}
