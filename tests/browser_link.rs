//! Share links against the browser's own compression streams: round trips, agreement with the
//! zlib the host tests pack with, and every damaged or oversized link refused.
#![cfg(target_arch = "wasm32")]

use rollsheet::storage::link::{self, LinkError};
use rollsheet::storage::transfer::{parse_import, MAX_IMPORT_BYTES};
use rollsheet::ui::share::{link_of, open_link};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const FIXTURE: &str = include_str!("fixtures/character-heimr-v1.json");

#[wasm_bindgen_test]
async fn a_character_round_trips_through_a_link() {
    let link = link_of(FIXTURE).await.unwrap();
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    assert!(link.starts_with(&format!("{origin}/#share=1.")), "{link}");
    assert!(
        link.len() < FIXTURE.len(),
        "packed: {} of {}",
        link.len(),
        FIXTURE.len()
    );
    let json = open_link(&link).await.unwrap();
    assert_eq!(json, FIXTURE);
    assert_eq!(parse_import(&json).unwrap()[0].name, "Astrid Ulfsdottir");
}

#[wasm_bindgen_test]
async fn the_browser_and_the_host_zlib_agree() {
    // Packed by the browser, unpacked by miniz_oxide (what the host tests use) …
    let link = link_of(FIXTURE).await.unwrap();
    let packed = link::payload(&link).unwrap();
    let unpacked = miniz_oxide::inflate::decompress_to_vec_zlib(&packed).unwrap();
    assert_eq!(unpacked, FIXTURE.as_bytes());
    // … and the other way round.
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(FIXTURE.as_bytes(), 9);
    let link = link::make("https://elsewhere.example", &packed);
    assert_eq!(open_link(&link).await.unwrap(), FIXTURE);
}

#[wasm_bindgen_test]
async fn damaged_and_oversized_links_are_refused() {
    let link = link_of(FIXTURE).await.unwrap();
    let cut = &link[..link.len() - 5];
    assert!(matches!(open_link(cut).await, Err(LinkError::Damaged(_))));
    // A character in the middle changed: the checksum or the stream catches it.
    let mid = link.len() - 40;
    let mut tampered = link.clone();
    let other = if &link[mid..=mid] == "A" { "B" } else { "A" };
    tampered.replace_range(mid..=mid, other);
    assert!(matches!(
        open_link(&tampered).await,
        Err(LinkError::Damaged(_))
    ));
    // A small link that unpacks past what a phone stores: stopped at the limit.
    let spaces = vec![b' '; MAX_IMPORT_BYTES + 100];
    let bomb = link::make(
        "https://x",
        &miniz_oxide::deflate::compress_to_vec_zlib(&spaces, 6),
    );
    assert!(bomb.len() < 40_000);
    assert_eq!(open_link(&bomb).await, Err(LinkError::TooLarge));
    // Not UTF-8 inside.
    let bytes = link::make(
        "https://x",
        &miniz_oxide::deflate::compress_to_vec_zlib(&[0xff, 0xfe], 6),
    );
    assert!(matches!(
        open_link(&bytes).await,
        Err(LinkError::Damaged(_))
    ));
}
