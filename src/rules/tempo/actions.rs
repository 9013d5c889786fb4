//! The Tempo action catalogue as data: every action of the seed with its cost, kind, the
//! statuses it may be taken in, what it answers or replaces, whether it has a check, and its
//! outcome table. Tested row by row against the seed (tests at the end).

/// A combatant's disposition: which actions it may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    OffGuard,
    OnGuard,
    Bound,
    Grappled,
    Pinned,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::OffGuard,
        Status::OnGuard,
        Status::Bound,
        Status::Grappled,
        Status::Pinned,
    ];

    /// The name of the fight's condition that holds this status.
    pub const fn name(self) -> &'static str {
        match self {
            Status::OffGuard => "Off Guard",
            Status::OnGuard => "On Guard",
            Status::Bound => "Bound",
            Status::Grappled => "Grappled",
            Status::Pinned => "Pinned",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// On one's own turn.
    Proactive,
    /// On an opponent's turn, answering its proactive action.
    Reactive,
    /// On one's own turn, replacing one's proactive action after a reaction.
    CounterTempo,
    /// Recover Stamina: at the end of one's own turn, by itself.
    Special,
}

/// Where an outcome row starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dt {
    /// The lowest row: everything below the next one.
    Lowest,
    /// A result of at least this.
    At(i32),
    /// At least the target's combat defence.
    Defence,
    /// At least the target's combat defence (armoured), and never below its combat defence.
    Armoured,
    /// At least the target's grapple defence.
    Grapple,
}

/// What an outcome does, besides being written in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Nothing,
    /// Ready: the actor is On Guard.
    OnGuard,
    /// Aim: the next weapon attack uses the aimed accuracy.
    Aimed,
    /// The opposing action fails without effect.
    Foils,
    /// Parry at exactly 0: the opposing action fails and both are Bound.
    Binds,
    /// Both are Grappled.
    Grapples,
    /// The target is Pinned (the actor stays Grappled).
    Pins,
    /// The bind or grapple ends: both are On Guard.
    Frees,
    /// The bind ends (both On Guard) and the target loses its weapon.
    Disarms,
    /// Damage with armour counted.
    Hit,
    /// Damage ignoring armour.
    Crit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub dt: Dt,
    pub name: &'static str,
    pub effect: Effect,
}

/// Which weapon pays a "by weapon" cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arm {
    Melee,
    Ranged,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    pub name: &'static str,
    /// Fixed AP cost, or `None`: the weapon's cost for this action.
    pub cost: Option<i32>,
    /// The weapon a "by weapon" cost (and an attack) uses.
    pub arm: Option<Arm>,
    pub kind: Kind,
    pub allowed: &'static [Status],
    /// For a reaction or a counter-tempo action: the actions it answers.
    pub responds: &'static [&'static str],
    /// For a counter-tempo action: the proactive actions it may replace.
    pub replaces: &'static [&'static str],
    /// Whether it is rolled; without a check the result is 0.
    pub check: bool,
    pub rows: &'static [Row],
    /// What it is for, in our words.
    pub text: &'static str,
}

use Dt::*;
use Effect as E;
use Status::*;

const fn row(dt: Dt, name: &'static str, effect: Effect) -> Row {
    Row { dt, name, effect }
}

const FAIL: Row = row(Lowest, "Failure", E::Nothing);
const MISS: Row = row(Lowest, "Miss", E::Nothing);
/// The table of every strike: miss, hit against the combat defence, critical against the
/// armoured one.
const STRIKE: &[Row] = &[
    MISS,
    row(Defence, "Hit", E::Hit),
    row(Armoured, "Critical Hit", E::Crit),
];
const FOIL: &[Row] = &[FAIL, row(At(0), "Success", E::Foils)];
const PARRY: &[Row] = &[
    FAIL,
    row(At(0), "Bind", E::Binds),
    row(At(1), "Success", E::Foils),
];
const STEP: &[Row] = &[
    FAIL,
    row(At(1), "Success", E::Nothing),
    row(At(10), "Critical Success", E::Nothing),
];
const ON_GUARD: &[Status] = &[OnGuard];
const BOUND: &[Status] = &[Bound];

/// Every action, in the seed's order.
pub const ACTIONS: [Action; 26] = [
    Action {
        name: "Aim",
        cost: Some(4),
        arm: None,
        kind: Kind::Proactive,
        allowed: ON_GUARD,
        responds: &[],
        replaces: &[],
        check: false,
        rows: &[FAIL, row(At(0), "Success", E::Aimed)],
        text: "Line up a shot: the next weapon attack uses the weapon's aimed accuracy.",
    },
    Action {
        name: "Move",
        cost: Some(2),
        arm: None,
        kind: Kind::Proactive,
        allowed: &[OffGuard, OnGuard],
        responds: &[],
        replaces: &[],
        check: false,
        rows: &[FAIL, row(At(0), "Success", E::Nothing)],
        text: "Move freely (no check: a result of 0). If hit on the way, stop at the first square you can.",
    },
    Action {
        name: "Combat Move",
        cost: Some(3),
        arm: None,
        kind: Kind::Proactive,
        allowed: ON_GUARD,
        responds: &[],
        replaces: &[],
        check: true,
        rows: STEP,
        text: "Shift while guarded: one square toward or away, sideways up to your movement.",
    },
    Action {
        name: "Disarm",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Proactive,
        allowed: BOUND,
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[FAIL, row(At(8), "Success", E::Disarms)],
        text: "Lever the opponent's blade out of its hand; the bind ends.",
    },
    Action {
        name: "Escape",
        cost: Some(3),
        arm: None,
        kind: Kind::Proactive,
        allowed: &[Grappled, Pinned],
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[FAIL, row(At(1), "Success", E::Frees)],
        text: "Break free of a grapple or a pin.",
    },
    Action {
        name: "Feint",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Proactive,
        allowed: ON_GUARD,
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[MISS],
        text: "A false attack to draw a parry; if it does, replace it with a counter-attack at +3. Left alone it does nothing.",
    },
    Action {
        name: "Grapple",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Proactive,
        allowed: BOUND,
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[FAIL, row(At(8), "Success", E::Grapples)],
        text: "Close in from the bind and take hold: both are grappled.",
    },
    Action {
        name: "Melee Attack",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Proactive,
        allowed: ON_GUARD,
        responds: &[],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Strike with the melee weapon.",
    },
    Action {
        name: "Pin",
        cost: Some(3),
        arm: None,
        kind: Kind::Proactive,
        allowed: &[Grappled],
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[FAIL, row(Grapple, "Success", E::Pins)],
        text: "Hold the opponent down: it is pinned.",
    },
    Action {
        name: "Press",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Proactive,
        allowed: BOUND,
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[
            FAIL,
            row(Defence, "Success", E::Hit),
            row(Armoured, "Critical Success", E::Crit),
        ],
        text: "Drive the blade through the bind into the opponent.",
    },
    Action {
        name: "Ranged Attack",
        cost: None,
        arm: Some(Arm::Ranged),
        kind: Kind::Proactive,
        allowed: ON_GUARD,
        responds: &[],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Shoot or throw the ranged weapon.",
    },
    Action {
        name: "Ready",
        cost: Some(1),
        arm: None,
        kind: Kind::Proactive,
        allowed: &[OffGuard],
        responds: &[],
        replaces: &[],
        check: false,
        rows: &[row(Lowest, "Success", E::OnGuard)],
        text: "Take a guard: On Guard.",
    },
    Action {
        name: "Unarmed Attack",
        cost: Some(3),
        arm: None,
        kind: Kind::Proactive,
        allowed: &[Grappled, OnGuard],
        responds: &[],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Punch or kick. A melee counter-attack against it gets +5.",
    },
    Action {
        name: "Withdraw",
        cost: Some(2),
        arm: None,
        kind: Kind::Proactive,
        allowed: BOUND,
        responds: &[],
        replaces: &[],
        check: true,
        rows: &[FAIL, row(At(1), "Success", E::Frees)],
        text: "Pull out of the bind.",
    },
    Action {
        name: "Counter-Attack",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Move", "Combat Move", "Melee Attack", "Unarmed Attack"],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Turn the incoming attack aside and strike back at once; both may be hit.",
    },
    Action {
        name: "Counter-Fire",
        cost: None,
        arm: Some(Arm::Ranged),
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Aim", "Move", "Combat Move"],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Shoot at an opponent who aims or moves.",
    },
    Action {
        name: "Dodge",
        cost: Some(2),
        arm: None,
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Ranged Attack"],
        replaces: &[],
        check: true,
        rows: FOIL,
        text: "Get out of a shot's way (only from farther than the weapon's attack speed).",
    },
    Action {
        name: "Double",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Reactive,
        allowed: BOUND,
        responds: &["Disarm", "Grapple", "Press", "Withdraw"],
        replaces: &[],
        check: true,
        rows: STRIKE,
        text: "Give up the bind to strike fast; risky if mistimed.",
    },
    Action {
        name: "Evade",
        cost: Some(2),
        arm: None,
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Melee Attack", "Unarmed Attack"],
        replaces: &[],
        check: true,
        rows: FOIL,
        text: "Step out of a blow's way.",
    },
    Action {
        name: "Parry",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Melee Attack", "Unarmed Attack"],
        replaces: &[],
        check: true,
        rows: PARRY,
        text: "Put the blade in the blow's way; exactly 0 locks both in a bind.",
    },
    Action {
        name: "Retreat",
        cost: Some(3),
        arm: None,
        kind: Kind::Reactive,
        allowed: ON_GUARD,
        responds: &["Move", "Combat Move"],
        replaces: &[],
        check: true,
        rows: STEP,
        text: "Fall back from an opponent closing in.",
    },
    Action {
        name: "Struggle",
        cost: Some(3),
        arm: None,
        kind: Kind::Reactive,
        allowed: &[Grappled],
        responds: &["Escape", "Pin", "Unarmed Attack"],
        replaces: &[],
        check: true,
        rows: FOIL,
        text: "Keep control of the grapple.",
    },
    Action {
        name: "Wind",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::Reactive,
        allowed: BOUND,
        responds: &["Disarm", "Grapple", "Press", "Withdraw"],
        replaces: &[],
        check: true,
        rows: FOIL,
        text: "Keep control of the bind.",
    },
    Action {
        name: "CT Counter-Attack",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::CounterTempo,
        allowed: ON_GUARD,
        responds: &["Counter-Attack"],
        replaces: &["Feint", "Melee Attack"],
        check: true,
        rows: STRIKE,
        text: "Answer a counter-attack with one of your own.",
    },
    Action {
        name: "CT Parry",
        cost: None,
        arm: Some(Arm::Melee),
        kind: Kind::CounterTempo,
        allowed: ON_GUARD,
        responds: &["Counter-Attack"],
        replaces: &["Feint", "Melee Attack"],
        check: true,
        rows: PARRY,
        text: "Parry the counter-attack your attack drew.",
    },
    // The seed heads its table "Action Check" but names no roll: the result is the AP balance
    // at the end of the turn (SPEC decision 12), so nothing is rolled.
    Action {
        name: "Recover Stamina",
        cost: Some(0),
        arm: None,
        kind: Kind::Special,
        allowed: &[Bound, Grappled, OffGuard, OnGuard, Pinned],
        responds: &[],
        replaces: &[],
        check: false,
        rows: &[
            FAIL,
            row(At(-13), "Reduced AP Recovery: 1", E::Nothing),
            row(At(-9), "Reduced AP Recovery: 2", E::Nothing),
            row(At(-8), "Reduced AP Recovery: 3", E::Nothing),
            row(At(-6), "Reduced AP Recovery: 4", E::Nothing),
            row(At(-4), "Reduced AP Recovery: 6", E::Nothing),
            row(At(-3), "Reduced AP Recovery: 8", E::Nothing),
            row(At(-2), "Reduced AP Recovery: 10", E::Nothing),
            row(At(-1), "Reduced AP Recovery: 11", E::Nothing),
            row(At(0), "Success", E::Nothing),
        ],
        text: "At the end of your turn: AP back by how far below 0 the balance went.",
    },
];

/// The Recover Stamina table for the encounter engine: (lowest balance, AP regained), highest
/// first; below the last row nothing comes back (SPEC decision 12).
pub const RECOVERY: &[(i32, i32)] = &[
    (0, 12),
    (-1, 11),
    (-2, 10),
    (-3, 8),
    (-4, 6),
    (-6, 4),
    (-8, 3),
    (-9, 2),
    (-13, 1),
];

/// AP regained from a balance.
pub fn regained(balance: i32) -> i32 {
    RECOVERY
        .iter()
        .find(|(at, _)| balance >= *at)
        .map_or(0, |r| r.1)
}

/// The balance after recovering from `balance`: at most 12.
pub fn after_recovery(balance: i32) -> i32 {
    balance.saturating_add(regained(balance)).min(12)
}

/// A special replacement outside the counter-tempo actions: a feint that drew a parry may
/// become a counter-attack at +3.
pub const FEINT_REPLACEMENT: (&str, &str, &str, i32) = ("Feint", "Parry", "Counter-Attack", 3);
/// A melee counter-attack against an unarmed attack gets +5.
pub const UNARMED_COUNTER: i32 = 5;

pub fn index(name: &str) -> Option<usize> {
    ACTIONS.iter().position(|a| a.name == name)
}

impl Action {
    pub fn allows(&self, s: Status) -> bool {
        self.allowed.contains(&s)
    }

    /// The statuses it needs, for a refusal: "Bound", "Grappled or Pinned".
    pub fn needs(&self) -> String {
        let names: Vec<&str> = self.allowed.iter().map(|s| s.name()).collect();
        names.join(" or ")
    }

    /// Whether it strikes with a weapon (the aimed accuracy applies).
    pub fn weapon_attack(&self) -> bool {
        self.arm.is_some() && self.rows.iter().any(|r| r.effect == E::Hit)
    }

    /// The row a result falls in, against the target's three defences.
    pub fn row_of(&self, net: i64, defence: i32, armoured: i32, grapple: i32) -> usize {
        let mut at = 0;
        for (i, r) in self.rows.iter().enumerate() {
            let t = match r.dt {
                Lowest => i64::MIN,
                At(n) => i64::from(n),
                Defence => i64::from(defence),
                Armoured => i64::from(armoured.max(defence)),
                Grapple => i64::from(grapple),
            };
            if net >= t {
                at = i;
            }
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(name: &str) -> &'static Action {
        &ACTIONS[index(name).unwrap_or_else(|| panic!("{name}"))]
    }

    /// Name, cost, kind, allowed, responds, replaces, check, rows.
    type SeedLine = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        bool,
        &'static str,
    );

    /// One line per action, as the seed lists it (Recover Stamina's "check" is the AP balance,
    /// not a roll: SPEC decision 12): cost ("W" by weapon), kind, allowed
    /// statuses, responds, replaces, check, rows as "threshold name".
    #[test]
    fn every_action_matches_the_seed_row_by_row() {
        let seed: [SeedLine; 26] = [
            ("Aim", "4", "P", "On Guard", "", "", false, "- Failure|0 Success"),
            ("Move", "2", "P", "Off Guard,On Guard", "", "", false, "- Failure|0 Success"),
            ("Combat Move", "3", "P", "On Guard", "", "", true, "- Failure|1 Success|10 Critical Success"),
            ("Disarm", "W", "P", "Bound", "", "", true, "- Failure|8 Success"),
            ("Escape", "3", "P", "Grappled,Pinned", "", "", true, "- Failure|1 Success"),
            ("Feint", "W", "P", "On Guard", "", "", true, "- Miss"),
            ("Grapple", "W", "P", "Bound", "", "", true, "- Failure|8 Success"),
            ("Melee Attack", "W", "P", "On Guard", "", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Pin", "3", "P", "Grappled", "", "", true, "- Failure|GD Success"),
            ("Press", "W", "P", "Bound", "", "", true, "- Failure|CD Success|ACD Critical Success"),
            ("Ranged Attack", "W", "P", "On Guard", "", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Ready", "1", "P", "Off Guard", "", "", false, "- Success"),
            ("Unarmed Attack", "3", "P", "Grappled,On Guard", "", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Withdraw", "2", "P", "Bound", "", "", true, "- Failure|1 Success"),
            ("Counter-Attack", "W", "R", "On Guard", "Move,Combat Move,Melee Attack,Unarmed Attack", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Counter-Fire", "W", "R", "On Guard", "Aim,Move,Combat Move", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Dodge", "2", "R", "On Guard", "Ranged Attack", "", true, "- Failure|0 Success"),
            ("Double", "W", "R", "Bound", "Disarm,Grapple,Press,Withdraw", "", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("Evade", "2", "R", "On Guard", "Melee Attack,Unarmed Attack", "", true, "- Failure|0 Success"),
            ("Parry", "W", "R", "On Guard", "Melee Attack,Unarmed Attack", "", true, "- Failure|0 Bind|1 Success"),
            ("Retreat", "3", "R", "On Guard", "Move,Combat Move", "", true, "- Failure|1 Success|10 Critical Success"),
            ("Struggle", "3", "R", "Grappled", "Escape,Pin,Unarmed Attack", "", true, "- Failure|0 Success"),
            ("Wind", "W", "R", "Bound", "Disarm,Grapple,Press,Withdraw", "", true, "- Failure|0 Success"),
            ("CT Counter-Attack", "W", "C", "On Guard", "Counter-Attack", "Feint,Melee Attack", true, "- Miss|CD Hit|ACD Critical Hit"),
            ("CT Parry", "W", "C", "On Guard", "Counter-Attack", "Feint,Melee Attack", true, "- Failure|0 Bind|1 Success"),
            ("Recover Stamina", "0", "S", "Bound,Grappled,Off Guard,On Guard,Pinned", "", "", false,
             "- Failure|-13 Reduced AP Recovery: 1|-9 Reduced AP Recovery: 2|-8 Reduced AP Recovery: 3|-6 Reduced AP Recovery: 4|-4 Reduced AP Recovery: 6|-3 Reduced AP Recovery: 8|-2 Reduced AP Recovery: 10|-1 Reduced AP Recovery: 11|0 Success"),
        ];
        for (i, (name, cost, kind, allowed, responds, replaces, check, rows)) in
            seed.into_iter().enumerate()
        {
            let x = &ACTIONS[i];
            assert_eq!(x.name, name);
            let c = x.cost.map_or("W".to_owned(), |c| c.to_string());
            assert_eq!(c, cost, "{name} cost");
            assert_eq!(x.cost.is_none(), x.arm.is_some(), "{name}: a weapon pays");
            let k = match x.kind {
                Kind::Proactive => "P",
                Kind::Reactive => "R",
                Kind::CounterTempo => "C",
                Kind::Special => "S",
            };
            assert_eq!(k, kind, "{name} kind");
            let al: Vec<&str> = x.allowed.iter().map(|s| s.name()).collect();
            assert_eq!(al.join(","), allowed, "{name} allowed");
            assert_eq!(x.responds.join(","), responds, "{name} responds");
            assert_eq!(x.replaces.join(","), replaces, "{name} replaces");
            assert_eq!(x.check, check, "{name} check");
            let r: Vec<String> = x
                .rows
                .iter()
                .map(|r| {
                    let t = match r.dt {
                        Lowest => "-".to_owned(),
                        At(n) => n.to_string(),
                        Defence => "CD".into(),
                        Armoured => "ACD".into(),
                        Grapple => "GD".into(),
                    };
                    format!("{t} {}", r.name)
                })
                .collect();
            assert_eq!(r.join("|"), rows, "{name} rows");
            for resp in x.responds.iter().chain(x.replaces) {
                assert!(index(resp).is_some(), "{name} names {resp}");
            }
        }
    }

    #[test]
    fn effects_follow_the_outcome_texts() {
        let eff = |n: &str, row: &str| {
            a(n).rows
                .iter()
                .find(|r| r.name == row)
                .map(|r| r.effect)
                .unwrap()
        };
        assert_eq!(eff("Ready", "Success"), E::OnGuard);
        assert_eq!(eff("Aim", "Success"), E::Aimed);
        assert_eq!(eff("Parry", "Bind"), E::Binds);
        assert_eq!(eff("CT Parry", "Bind"), E::Binds);
        assert_eq!(eff("Parry", "Success"), E::Foils);
        for n in ["Dodge", "Evade", "Struggle", "Wind"] {
            assert_eq!(eff(n, "Success"), E::Foils, "{n}");
        }
        assert_eq!(eff("Grapple", "Success"), E::Grapples);
        assert_eq!(eff("Pin", "Success"), E::Pins);
        assert_eq!(eff("Escape", "Success"), E::Frees);
        assert_eq!(eff("Withdraw", "Success"), E::Frees);
        assert_eq!(eff("Disarm", "Success"), E::Disarms);
        assert_eq!(eff("Press", "Critical Success"), E::Crit);
        for n in [
            "Melee Attack",
            "Ranged Attack",
            "Unarmed Attack",
            "Counter-Attack",
            "Counter-Fire",
            "Double",
            "CT Counter-Attack",
        ] {
            assert_eq!(eff(n, "Hit"), E::Hit, "{n}");
            assert_eq!(eff(n, "Critical Hit"), E::Crit, "{n}");
            assert!(a(n).weapon_attack() || n == "Unarmed Attack");
        }
        assert!(!a("Unarmed Attack").weapon_attack());
        assert!(!a("Feint").weapon_attack());
    }

    #[test]
    fn rows_by_threshold() {
        let m = a("Melee Attack");
        // CD 5, armoured 8.
        assert_eq!(m.row_of(4, 5, 8, 0), 0);
        assert_eq!(m.row_of(5, 5, 8, 0), 1);
        assert_eq!(m.row_of(7, 5, 8, 0), 1);
        assert_eq!(m.row_of(8, 5, 8, 0), 2);
        // No armour worth the name (armoured below plain): every hit is critical.
        assert_eq!(m.row_of(5, 5, 3, 0), 2);
        assert_eq!(m.row_of(4, 5, 3, 0), 0);
        let p = a("Parry");
        assert_eq!(p.row_of(-1, 0, 0, 0), 0);
        assert_eq!(p.row_of(0, 0, 0, 0), 1);
        assert_eq!(p.row_of(1, 0, 0, 0), 2);
        let pin = a("Pin");
        assert_eq!(pin.row_of(6, 0, 0, 7), 0);
        assert_eq!(pin.row_of(7, 0, 0, 7), 1);
        assert_eq!(a("Feint").row_of(100, 0, 0, 0), 0);
        assert_eq!(a("Ready").row_of(-100, 0, 0, 0), 0);
        let cm = a("Combat Move");
        assert_eq!(cm.row_of(0, 0, 0, 0), 0);
        assert_eq!(cm.row_of(9, 0, 0, 0), 1);
        assert_eq!(cm.row_of(10, 0, 0, 0), 2);
    }

    /// The recovery table equals the Recover Stamina rows, and the issue's mapping.
    #[test]
    fn recovery_table() {
        let rec = a("Recover Stamina");
        for b in -30..=12 {
            let i = rec.row_of(i64::from(b), 0, 0, 0);
            let by_rows = match rec.rows[i].name {
                "Failure" => 0,
                "Success" => 12,
                n => n.rsplit(' ').next().unwrap().parse().unwrap(),
            };
            assert_eq!(regained(b), by_rows, "balance {b}");
            let issue = match b {
                0.. => 12,
                -1 => 11,
                -2 => 10,
                -3 => 8,
                -4 => 6,
                -6..=-5 => 4,
                -8..=-7 => 3,
                -9 => 2,
                -13..=-10 => 1,
                _ => 0,
            };
            assert_eq!(regained(b), issue, "balance {b}");
        }
        assert_eq!(after_recovery(5), 12);
        assert_eq!(after_recovery(0), 12);
        assert_eq!(after_recovery(-3), 5);
        assert_eq!(after_recovery(-13), -12);
        assert_eq!(after_recovery(-14), -14);
    }
}
