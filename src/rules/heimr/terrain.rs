//! Heimr's environment tables (seed 000, "Environment", L467–552) as reference data the GM
//! picks a number from: how many may pass a border at once, the CR of getting across one or
//! of a climb, how tough a barrier is, and how much a thing hides. The numbers are the seed's;
//! the words are ours.

/// What a row's number means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// How many may pass the border before it is full again (L477–490).
    Limit,
    /// The CR of getting across; a miss stops the crossing and leaves it prone (L492–502).
    Crossing,
    /// The CR of each climb; a miss is a fall from the height tried (L517–532).
    Climbing,
    /// The toughness to break before anyone can pass (L504–513).
    Structure,
    /// How well it hides (L534–552); `high` is the top of a range, `height` its height.
    Cover,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Limit => "Limit",
            Kind::Crossing => "Cross",
            Kind::Climbing => "Climb",
            Kind::Structure => "Toughness",
            Kind::Cover => "Cover",
        }
    }

    /// What the number is for, in a few words.
    pub fn note(self) -> &'static str {
        match self {
            Kind::Limit => "this many pass, then no more until the first one's next turn",
            Kind::Crossing => "CR to get across; a miss stops it there, prone",
            Kind::Climbing => "CR of each climb; a miss is a fall",
            Kind::Structure => "break it to pass; no crossing otherwise",
            Kind::Cover => "concealment against any attacker outside its combat cluster",
        }
    }

    /// Whether the number is a challenge requirement a side can roll against.
    pub fn is_cr(self) -> bool {
        matches!(self, Kind::Crossing | Kind::Climbing)
    }
}

/// One row: a thing on the battlefield and its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terrain {
    pub kind: Kind,
    pub name: &'static str,
    /// The limit, CR (0: no roll), toughness or concealment.
    pub n: i32,
    /// The top of a concealment that is a range (darkness, weather); else `n`.
    pub high: i32,
    /// A cover's height in levels (0: no height); `tall`: that height or more.
    pub height: i32,
    pub tall: bool,
}

const fn row(kind: Kind, name: &'static str, n: i32) -> Terrain {
    Terrain {
        kind,
        name,
        n,
        high: n,
        height: 0,
        tall: false,
    }
}

const fn cover(name: &'static str, n: i32, high: i32, height: i32, tall: bool) -> Terrain {
    Terrain {
        kind: Kind::Cover,
        name,
        n,
        high,
        height,
        tall,
    }
}

/// Every row of the five tables, in the seed's order.
pub const TERRAIN: [Terrain; 31] = [
    row(Kind::Limit, "Single door", 2),
    row(Kind::Limit, "Thick vegetation", 2),
    row(Kind::Limit, "Double door", 4),
    row(Kind::Limit, "Window", 1),
    row(Kind::Limit, "Ladder", 1),
    row(Kind::Crossing, "Window", 5),
    row(Kind::Crossing, "Jump of 1.5 m", 1),
    row(Kind::Crossing, "Jump of 2 m", 3),
    row(Kind::Crossing, "Jump of 2.5 m", 6),
    row(Kind::Crossing, "Jump of 3 m", 9),
    row(Kind::Crossing, "Rope swing", 4),
    row(Kind::Structure, "Door", 2),
    row(Kind::Structure, "Strong door", 4),
    row(Kind::Structure, "Gate", 6),
    row(Kind::Structure, "Wooden wall", 4),
    row(Kind::Structure, "Stone wall", 6),
    row(Kind::Climbing, "Ladder or stairs", 0),
    row(Kind::Climbing, "Rope ladder", 2),
    row(Kind::Climbing, "Rope", 4),
    row(Kind::Climbing, "Rock face", 6),
    row(Kind::Climbing, "Steep rock face", 9),
    row(Kind::Climbing, "Tree", 5),
    row(Kind::Climbing, "Stone wall", 11),
    cover("Thick tree", 2, 2, 4, true),
    cover("Wooden cart or crate", 2, 2, 1, false),
    cover("Shrubbery", 1, 1, 1, false),
    cover("Stone merlon", 5, 5, 2, false),
    cover("Wooden table", 3, 3, 1, false),
    cover("Tall grass", 1, 1, 1, false),
    cover("Darkness", 1, 3, 0, false),
    cover("Extreme weather", 1, 3, 0, false),
];

impl Terrain {
    /// "Climb · Rope · 4", "Cover · Darkness · 1–3, no height", "Climb · Ladder or stairs · no
    /// roll".
    pub fn label(&self) -> String {
        let n = if self.kind == Kind::Climbing && self.n == 0 {
            "no roll".to_owned()
        } else if self.high > self.n {
            format!("{}–{}", self.n, self.high)
        } else {
            self.n.to_string()
        };
        let height = match (self.kind, self.height, self.tall) {
            (Kind::Cover, 0, _) => ", no height".to_owned(),
            (Kind::Cover, h, true) => format!(", height {h}+"),
            (Kind::Cover, h, false) => format!(", height {h}"),
            _ => String::new(),
        };
        format!("{} · {} · {n}{height}", self.kind.name(), self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's tables, number by number (L485–490, L497–502, L509–513, L526–532, L545–552).
    #[test]
    fn the_tables_hold_the_seeds_numbers() {
        let of = |k: Kind| -> Vec<(&str, i32)> {
            TERRAIN
                .iter()
                .filter(|t| t.kind == k)
                .map(|t| (t.name, t.n))
                .collect()
        };
        assert_eq!(
            of(Kind::Limit).iter().map(|x| x.1).collect::<Vec<_>>(),
            [2, 2, 4, 1, 1]
        );
        assert_eq!(
            of(Kind::Crossing).iter().map(|x| x.1).collect::<Vec<_>>(),
            [5, 1, 3, 6, 9, 4]
        );
        assert_eq!(
            of(Kind::Structure).iter().map(|x| x.1).collect::<Vec<_>>(),
            [2, 4, 6, 4, 6]
        );
        assert_eq!(
            of(Kind::Climbing).iter().map(|x| x.1).collect::<Vec<_>>(),
            [0, 2, 4, 6, 9, 5, 11]
        );
        let covers: Vec<(i32, i32, i32, bool)> = TERRAIN
            .iter()
            .filter(|t| t.kind == Kind::Cover)
            .map(|t| (t.n, t.high, t.height, t.tall))
            .collect();
        assert_eq!(
            covers,
            [
                (2, 2, 4, true),
                (2, 2, 1, false),
                (1, 1, 1, false),
                (5, 5, 2, false),
                (3, 3, 1, false),
                (1, 1, 1, false),
                (1, 3, 0, false),
                (1, 3, 0, false),
            ]
        );
        // A range only where the seed gives one; a height only on covers.
        for t in TERRAIN {
            assert!(t.high >= t.n, "{t:?}");
            assert_eq!(
                t.high > t.n,
                t.name == "Darkness" || t.name == "Extreme weather"
            );
            assert!(t.kind == Kind::Cover || (t.height == 0 && !t.tall), "{t:?}");
            assert_eq!(
                t.kind.is_cr(),
                matches!(t.kind, Kind::Crossing | Kind::Climbing)
            );
        }
    }

    #[test]
    fn labels_say_the_number_and_its_kind() {
        let at = |name: &str, k: Kind| {
            TERRAIN
                .iter()
                .find(|t| t.name == name && t.kind == k)
                .unwrap()
                .label()
        };
        assert_eq!(at("Rope", Kind::Climbing), "Climb · Rope · 4");
        assert_eq!(
            at("Ladder or stairs", Kind::Climbing),
            "Climb · Ladder or stairs · no roll"
        );
        assert_eq!(at("Window", Kind::Limit), "Limit · Window · 1");
        assert_eq!(at("Window", Kind::Crossing), "Cross · Window · 5");
        assert_eq!(
            at("Thick tree", Kind::Cover),
            "Cover · Thick tree · 2, height 4+"
        );
        assert_eq!(
            at("Darkness", Kind::Cover),
            "Cover · Darkness · 1–3, no height"
        );
        assert_eq!(at("Gate", Kind::Structure), "Toughness · Gate · 6");
    }
}
