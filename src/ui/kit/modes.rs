use leptos::prelude::*;

/// What a character page is for right now: playing at the table, editing the sheet, or
/// spending experience.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Play,
    Edit,
    Advance,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Play, Mode::Edit, Mode::Advance];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Play => "Play",
            Mode::Edit => "Edit",
            Mode::Advance => "Advance",
        }
    }

    fn id(self) -> &'static str {
        match self {
            Mode::Play => "tab-play",
            Mode::Edit => "tab-edit",
            Mode::Advance => "tab-advance",
        }
    }
}

/// The three mode tabs; the panel they control has the id `mode-panel`.
#[component]
pub fn ModeTabs(mode: RwSignal<Mode>) -> impl IntoView {
    view! {
        <div class="mode-tabs" role="tablist" aria-label="Sheet mode">
            {Mode::ALL.map(|m| view! {
                <button role="tab" id=m.id() class="mode-tab" aria-controls="mode-panel"
                    aria-selected=move || (mode.get() == m).to_string()
                    tabindex=move || if mode.get() == m { "0" } else { "-1" }
                    on:click=move |_| mode.set(m)>{m.name()}</button>
            }).collect_view()}
        </div>
    }
}

/// The `aria-labelledby` of the panel for a mode.
pub fn tab_id(m: Mode) -> &'static str {
    m.id()
}
