use crate::ui::router::Link;
use leptos::prelude::*;

/// The bottom navigation: four thumb-sized tabs. `A` marks the current one with aria-current.
#[component]
pub fn BottomNav() -> impl IntoView {
    view! {
        <nav class="bottom-nav" aria-label="Main">
            <Link href="/">
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8c0-3.3 3.1-6 7-6s7 2.7 7 6z"/></svg>
                <span>"Characters"</span>
            </Link>
            <Link href="/roller">
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2 3 7v10l9 5 9-5V7zm0 3.2 5.6 3.1L12 16 6.4 8.3z"/></svg>
                <span>"Roller"</span>
            </Link>
            <Link href="/combat">
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="m4 3 7 7-1.5 1.5L3 5V3zm16 0v2l-9 9 2 2-1.5 1.5-2-2L6 19l1 1-1.5 1.5L2 18l1.5-1.5 1 1 3.5-3.5-2-2L7.5 10.5l2 2L18 3z"/></svg>
                <span>"Combat"</span>
            </Link>
            <Link href="/settings">
                <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h10v2H4zm12-1h2v4h-2V8h-0zM4 16h4v2H4zm6-1h2v4h-2zm4 1h6v2h-6zm-4-9h10v2H10zM16 5h4v2h-4z"/></svg>
                <span>"Settings"</span>
            </Link>
        </nav>
    }
}
