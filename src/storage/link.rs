//! Share by link: a character, a backup or an encounter carried in the fragment of a link to the
//! app's own origin, `https://host/#share=1.<data>`. The fragment never reaches a server; `1` is
//! the link format (the exported JSON, zlib-compressed, in unpadded base64url) and the JSON
//! inside carries its own `schema_version`. zlib rather than raw deflate: its Adler-32 checksum
//! (6 bytes a link) turns a changed or lost character into "damaged", never into a different
//! character that passes. Opening a link runs the file import on the
//! unpacked text: the same checks, the same messages.
//!
//! Compression is the browser's own (`CompressionStream`, no bytes in the app): this module
//! holds what is pure — the link's shape, base64url, the limits — and `ui/share.rs` the
//! streams. Host tests pack with a Rust deflate to prove the round trip.

use super::transfer::MAX_IMPORT_BYTES;

/// What starts a share link's fragment.
pub const MARK: &str = "#share=";
/// The link format this app writes and reads, before the `.` that ends it.
pub const FORMAT: &str = "1";
/// Longest link accepted: Chromium's own limit on a URL (2 MiB).
pub const MAX_LINK_CHARS: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("This link is {0} KB; links are limited to {max} KB.", max = MAX_LINK_CHARS / 1000)]
    TooLong(usize),
    #[error("This link was made by a newer Rollsheet (link format {0}). Update the app, then open it again.")]
    NewerFormat(String),
    #[error("This link is damaged or cut short ({0}). Ask for it again, or for the file.")]
    Damaged(&'static str),
    #[error("This link unpacks to more than {max} KB, more than a phone can store.", max = MAX_IMPORT_BYTES / 1000)]
    TooLarge,
}

/// The link to `origin` (e.g. `https://rollsheet.example`) carrying `packed` (zlib).
pub fn make(origin: &str, packed: &[u8]) -> String {
    format!(
        "{}/{MARK}{FORMAT}.{}",
        origin.trim_end_matches('/'),
        encode(packed)
    )
}

/// Whether a text (a pasted link, a scanned code, the address bar) is a share link. Exported
/// JSON (which starts with `{`) never is, even when a note in it quotes a link.
pub fn is_link(text: &str) -> bool {
    let t = text.trim();
    t.contains(MARK) && !t.starts_with('{') && !t.starts_with('[')
}

/// The packed bytes a link (or just its fragment) carries, before unpacking.
pub fn payload(text: &str) -> Result<Vec<u8>, LinkError> {
    let text = text.trim();
    if text.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong(text.len().div_ceil(1000)));
    }
    let Some((_, rest)) = text.split_once(MARK) else {
        return Err(LinkError::Damaged("no shared data in it"));
    };
    match rest.split_once('.') {
        Some((FORMAT, data)) => decode(data).ok_or(LinkError::Damaged(
            "it has characters a Rollsheet link never holds",
        )),
        Some((v, _))
            if !v.is_empty()
                && !v.starts_with('0')
                && v.len() <= 6
                && v.bytes().all(|b| b.is_ascii_digit()) =>
        {
            Err(LinkError::NewerFormat(v.to_owned()))
        }
        _ => Err(LinkError::Damaged("its start is not a Rollsheet link")),
    }
}

/// The unpacked bytes as the JSON text they must be.
pub fn text_of(unpacked: Vec<u8>) -> Result<String, LinkError> {
    if unpacked.len() > MAX_IMPORT_BYTES {
        return Err(LinkError::TooLarge);
    }
    String::from_utf8(unpacked).map_err(|_| LinkError::Damaged("it does not unpack to text"))
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Each byte's value in [`ALPHABET`], or [`NONE`]: one lookup a character, so a link of a
/// million characters decodes in milliseconds (searching the alphabet took ~100 ms on a phone).
const VALUE: [u8; 256] = {
    let mut t = [NONE; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t
};
const NONE: u8 = 0xFF;

/// Unpadded base64url (RFC 4648 §5).
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The bytes of unpadded base64url; `None` for any other character, a length no encoding
/// gives, or stray bits in the last character.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            let v = VALUE[usize::from(c)];
            if v == NONE {
                return None;
            }
            n |= u32::from(v) << (18 - 6 * i);
        }
        let bytes = chunk.len() - 1;
        if n << (8 * bytes) & 0xFF_FFFF != 0 {
            return None;
        }
        out.extend((0..bytes).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Some(out)
}

/// Packing and unpacking as the browser does it (zlib, the size capped), for host tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use miniz_oxide::inflate::{decompress_to_vec_zlib_with_limit, TINFLStatus};

    pub fn link_of(json: &str) -> String {
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 9);
        make("https://roll.example", &packed)
    }

    /// A link's JSON, or why it cannot be had.
    pub fn open(link: &str) -> Result<String, LinkError> {
        let packed = payload(link)?;
        let unpacked = decompress_to_vec_zlib_with_limit(&packed, MAX_IMPORT_BYTES + 1).map_err(
            |e| match e.status {
                TINFLStatus::HasMoreOutput => LinkError::TooLarge,
                _ => LinkError::Damaged("it cannot be unpacked"),
            },
        )?;
        text_of(unpacked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_rfc_4648_vectors() {
        // RFC 4648 §10, without padding.
        let cases = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in cases {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        // The URL-safe characters stand where + and / would.
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
    }

    #[test]
    fn base64url_round_trips_every_byte_and_length() {
        let all: Vec<u8> = (0..=255).collect();
        for len in 0..all.len() {
            let coded = encode(&all[..len]);
            assert!(coded.bytes().all(|c| ALPHABET.contains(&c)));
            assert_eq!(coded.len(), (len * 4).div_ceil(3));
            assert_eq!(decode(&coded).unwrap(), &all[..len]);
        }
    }

    #[test]
    fn base64url_refuses_what_no_encoder_writes() {
        // Lengths no encoding has, standard base64's own characters, padding, spaces, and
        // ("Zh", "Zm9") stray low bits in the last character, which no encoder writes.
        for bad in [
            "A", "Zm9vY", "Zm+v", "Zm/v", "Zm9v=", "Zg==", "Zm 9", "Zh", "Zm9",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
        }
        // Every byte outside the alphabet, in every place of a group (UTF-8's bytes too).
        for c in (0..=255u8).filter(|c| !ALPHABET.contains(c)) {
            for at in 0..4 {
                let mut group = *b"AAAA";
                group[at] = c;
                assert_eq!(
                    decode(&String::from_utf8_lossy(&group)),
                    None,
                    "{c} at {at}"
                );
            }
        }
    }

    #[test]
    fn a_link_carries_its_format_and_payload() {
        let link = make("https://roll.example/", &[1, 2, 3, 250]);
        assert_eq!(link, "https://roll.example/#share=1.AQID-g");
        assert!(is_link(&link));
        assert!(is_link("  #share=1.AQID-g\n"));
        // An exported character whose notes quote a link is a file's text, not a link.
        assert!(!is_link(
            r#"{"name":"A","notes":"see https://x/#share=1.AQ"}"#
        ));
        assert!(!is_link("https://x/#other"));
        assert_eq!(payload(&link).unwrap(), [1, 2, 3, 250]);
        // The fragment alone, as the address bar gives it, and with spaces around a paste.
        assert_eq!(payload("#share=1.AQID-g").unwrap(), [1, 2, 3, 250]);
        assert_eq!(
            payload("  https://x/#share=1.AQID-g \n").unwrap(),
            [1, 2, 3, 250]
        );
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        assert_eq!(
            payload("https://x/#share=2.AQID"),
            Err(LinkError::NewerFormat("2".into()))
        );
        assert!(matches!(
            payload("https://x/#share=1.AQ!D"),
            Err(LinkError::Damaged(_))
        ));
        assert!(matches!(
            payload("https://x/#share=AQID"),
            Err(LinkError::Damaged(_))
        ));
        // Only formats above this one are newer; 0 and 01 were never written.
        for never in ["0", "01", ""] {
            let l = format!("https://x/#share={never}.AQID");
            assert!(matches!(payload(&l), Err(LinkError::Damaged(_))), "{never}");
        }
        assert!(matches!(
            payload("https://x/#other"),
            Err(LinkError::Damaged(_))
        ));
        let huge = format!("https://x/#share=1.{}", "A".repeat(MAX_LINK_CHARS));
        assert_eq!(
            payload(&huge),
            Err(LinkError::TooLong(huge.len().div_ceil(1000)))
        );
        assert!(LinkError::NewerFormat("2".into())
            .to_string()
            .contains("newer Rollsheet"));
    }

    #[test]
    fn unpacked_text_is_checked() {
        assert_eq!(text_of(b"{}".to_vec()).unwrap(), "{}");
        assert!(matches!(
            text_of(vec![0xff, 0xfe]),
            Err(LinkError::Damaged(_))
        ));
        assert_eq!(
            text_of(vec![b' '; MAX_IMPORT_BYTES + 1]),
            Err(LinkError::TooLarge)
        );
    }
}
