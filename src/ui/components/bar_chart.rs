use crate::rules::dice::Distribution;
use crate::ui::format::percent;
use leptos::prelude::*;

/// The most bars a chart draws; wider distributions are grouped into ranges.
const MAX_BARS: usize = 60;

/// A distribution as an inline SVG bar chart. Bars at or above the target are highlighted.
#[component]
pub fn BarChart(
    #[prop(into)] dist: Signal<Distribution>,
    #[prop(into)] target: Signal<Option<i64>>,
) -> impl IntoView {
    let bins = Memo::new(move |_| dist.with(|d| d.binned(MAX_BARS)));
    let label = move || {
        dist.with(|d| {
            format!(
                "Distribution from {} to {}, most likely {}",
                d.min(),
                d.max(),
                d.mode()
            )
        })
    };
    view! {
        <figure class="chart">
            <svg viewBox=move || format!("0 0 {} 1000", bins.with(Vec::len).max(1) * 10)
                preserveAspectRatio="none" role="img" aria-label=label>
                {move || {
                    let bins = bins.get();
                    let top = bins.iter().map(|b| b.p).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
                    let t = target.get();
                    bins.into_iter().enumerate().map(|(i, b)| {
                        // Integer units (1000 = the chart's height): no float formatting needed.
                        let h = ((b.p / top * 960.0).round() as u32).max(u32::from(b.p > 0.0) * 8);
                        let hit = t.is_some_and(|t| b.lo >= t);
                        let name = if b.lo == b.hi { b.lo.to_string() } else { format!("{}–{}", b.lo, b.hi) };
                        view! {
                            <rect x=i * 10 + 1 y=1000 - h width=8 height=h class:hit=hit>
                                <title>{format!("{name}: {}", percent(b.chance))}</title>
                            </rect>
                        }
                    }).collect_view()
                }}
            </svg>
            <figcaption>
                <span>{move || dist.with(|d| d.min())}</span>
                <span>{move || dist.with(|d| d.max())}</span>
            </figcaption>
        </figure>
    }
}
