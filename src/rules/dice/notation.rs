//! Dice notation: `NdS` pools, constants, sums and differences (`2d6+1d4-1`), keep highest or
//! lowest (`4d6kh3`, `2d20kl1`, `4d6k3` = keep highest), exploding dice (`1d10!`) and `d%`.
//!
//! Parsing gives a typed [`ParseError`] with the position of the problem and a sentence a
//! player understands, so the roller can point at the mistake while they type.

use std::fmt;

/// Most dice in one pool.
pub const MAX_DICE: u32 = 100;
/// Most dice in a whole expression.
pub const MAX_TOTAL_DICE: u32 = 200;
/// Largest die.
pub const MAX_SIDES: u32 = 1000;
/// Largest constant.
pub const MAX_CONSTANT: u32 = 10_000;
/// Most terms (pools and constants) in one expression.
pub const MAX_TERMS: usize = 20;
/// An exploding die is re-rolled at most this many times; the last re-roll never explodes.
pub const EXPLODE_CAP: u32 = 10;

/// A parsed dice expression: a signed sum of terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr {
    pub terms: Vec<Term>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    Plus,
    Minus,
}

impl Sign {
    pub fn apply(self, v: i64) -> i64 {
        match self {
            Sign::Plus => v,
            Sign::Minus => -v,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub sign: Sign,
    pub kind: TermKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TermKind {
    Constant(u32),
    Dice(Pool),
}

/// `count` dice with `sides` faces, optionally keeping some and optionally exploding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool {
    pub count: u32,
    pub sides: u32,
    pub keep: Option<Keep>,
    pub explode: bool,
}

impl Pool {
    pub const fn plain(count: u32, sides: u32) -> Self {
        Pool {
            count,
            sides,
            keep: None,
            explode: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Highest(u32),
    Lowest(u32),
}

impl Keep {
    pub fn count(self) -> u32 {
        match self {
            Keep::Highest(k) | Keep::Lowest(k) => k,
        }
    }
}

/// What went wrong, and where (a character index into the text the player typed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (at character {})", .at + 1)]
pub struct ParseError {
    pub at: usize,
    pub kind: ParseErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    #[error("type a roll, for example 2d6+1")]
    Empty,
    #[error("“{0}” is not part of dice notation")]
    Unexpected(char),
    #[error("a die needs a number of sides after “d”, like d6 or d%")]
    MissingSides,
    #[error("a number is missing after “{0}”")]
    MissingNumber(char),
    #[error("the roll ends with “{0}”: add a die or a number after it")]
    TrailingOperator(char),
    #[error("a pool needs at least one die")]
    ZeroDice,
    #[error("a die needs at least one side")]
    ZeroSides,
    #[error("at most {MAX_DICE} dice in one pool")]
    TooManyDice,
    #[error("at most {MAX_TOTAL_DICE} dice in one roll")]
    TooManyTotalDice,
    #[error("dice have at most {MAX_SIDES} sides")]
    TooManySides,
    #[error("numbers go up to {MAX_CONSTANT}")]
    ConstantTooLarge,
    #[error("at most {MAX_TERMS} parts in one roll")]
    TooManyTerms,
    #[error("can keep 1 to {count} of {count} dice, not {keep}")]
    KeepOutOfRange { keep: u32, count: u32 },
    #[error("only one keep (k, kh, kl) per pool")]
    DuplicateKeep,
    #[error("only one “!” per pool")]
    DuplicateExplode,
    #[error("a one-sided die cannot explode")]
    ExplodeD1,
    #[error("an operator (+ or −) is needed between two parts")]
    MissingOperator,
}

impl std::str::FromStr for Expr {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        parse(s)
    }
}

/// Parses dice notation. Spaces are ignored, `D` equals `d`, and `−` (U+2212) equals `-`.
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    Parser {
        chars: text.chars().collect(),
        pos: 0,
    }
    .expr()
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn err<T>(&self, at: usize, kind: ParseErrorKind) -> Result<T, ParseError> {
        Err(ParseError { at, kind })
    }

    fn skip_space(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.get(self.pos).map(|c| match c {
            'D' => 'd',
            'K' => 'k',
            'H' => 'h',
            'L' => 'l',
            '\u{2212}' | '\u{2013}' => '-',
            c => *c,
        })
    }

    /// A run of digits, if one starts here. Saturates instead of overflowing: callers check limits.
    fn number(&mut self) -> Option<u32> {
        self.skip_space();
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(d) = self.chars.get(self.pos).and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(d);
            self.pos += 1;
        }
        (self.pos > start).then_some(value)
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        if self.peek().is_none() {
            return self.err(0, ParseErrorKind::Empty);
        }
        let mut terms = Vec::new();
        let mut total_dice = 0u32;
        let mut sign = match self.peek() {
            Some('-') => {
                self.pos += 1;
                Sign::Minus
            }
            Some('+') => {
                self.pos += 1;
                Sign::Plus
            }
            _ => Sign::Plus,
        };
        loop {
            let start = self.pos;
            if terms.len() == MAX_TERMS {
                return self.err(start, ParseErrorKind::TooManyTerms);
            }
            let kind = self.term()?;
            if let TermKind::Dice(pool) = &kind {
                total_dice += pool.count;
                if total_dice > MAX_TOTAL_DICE {
                    return self.err(start, ParseErrorKind::TooManyTotalDice);
                }
            }
            terms.push(Term { sign, kind });
            let op_at = self.pos;
            sign = match self.peek() {
                None => break,
                Some('+') => Sign::Plus,
                Some('-') => Sign::Minus,
                Some(c) if c.is_ascii_digit() || c == 'd' => {
                    return self.err(op_at, ParseErrorKind::MissingOperator)
                }
                Some(c) => return self.err(self.pos, ParseErrorKind::Unexpected(c)),
            };
            let op = self.chars[self.pos];
            self.pos += 1;
            if self.peek().is_none() {
                return self.err(op_at, ParseErrorKind::TrailingOperator(op));
            }
        }
        Ok(Expr { terms })
    }

    fn term(&mut self) -> Result<TermKind, ParseError> {
        self.skip_space();
        let start = self.pos;
        let count = self.number();
        if self.peek() != Some('d') {
            return match count {
                Some(c) if c > MAX_CONSTANT => self.err(start, ParseErrorKind::ConstantTooLarge),
                Some(c) => Ok(TermKind::Constant(c)),
                None => match self.peek() {
                    Some(c) => self.err(self.pos, ParseErrorKind::Unexpected(c)),
                    None => self.err(start, ParseErrorKind::Empty),
                },
            };
        }
        let count = count.unwrap_or(1);
        if count == 0 {
            return self.err(start, ParseErrorKind::ZeroDice);
        }
        if count > MAX_DICE {
            return self.err(start, ParseErrorKind::TooManyDice);
        }
        let d_at = self.pos;
        self.pos += 1; // the 'd'
        let sides = if self.peek() == Some('%') {
            self.pos += 1;
            100
        } else {
            let sides_at = self.pos;
            match self.number() {
                None => return self.err(d_at, ParseErrorKind::MissingSides),
                Some(0) => return self.err(sides_at, ParseErrorKind::ZeroSides),
                Some(s) if s > MAX_SIDES => {
                    return self.err(sides_at, ParseErrorKind::TooManySides)
                }
                Some(s) => s,
            }
        };
        let mut pool = Pool {
            count,
            sides,
            keep: None,
            explode: false,
        };
        loop {
            let at = self.pos;
            match self.peek() {
                Some('!') => {
                    if pool.explode {
                        return self.err(at, ParseErrorKind::DuplicateExplode);
                    }
                    if sides == 1 {
                        return self.err(at, ParseErrorKind::ExplodeD1);
                    }
                    self.pos += 1;
                    pool.explode = true;
                }
                Some('k') => {
                    if pool.keep.is_some() {
                        return self.err(at, ParseErrorKind::DuplicateKeep);
                    }
                    self.pos += 1;
                    let highest = match self.peek() {
                        Some('h') => {
                            self.pos += 1;
                            true
                        }
                        Some('l') => {
                            self.pos += 1;
                            false
                        }
                        _ => true,
                    };
                    let Some(keep) = self.number() else {
                        return self.err(at, ParseErrorKind::MissingNumber('k'));
                    };
                    if keep == 0 || keep > count {
                        return self.err(at, ParseErrorKind::KeepOutOfRange { keep, count });
                    }
                    pool.keep = Some(if highest {
                        Keep::Highest(keep)
                    } else {
                        Keep::Lowest(keep)
                    });
                }
                _ => break,
            }
        }
        Ok(TermKind::Dice(pool))
    }
}

impl Expr {
    /// The expression with one more `sides`-sided die: a trailing plain pool of that die grows
    /// (`1d6` → `2d6`), otherwise `+1dS` is appended. Used by the roller's quick buttons.
    pub fn with_die(&self, sides: u32) -> Expr {
        let mut expr = self.clone();
        if let Some(Term {
            sign: Sign::Plus,
            kind: TermKind::Dice(pool),
        }) = expr.terms.last_mut()
        {
            if pool.sides == sides && pool.keep.is_none() && !pool.explode && pool.count < MAX_DICE
            {
                pool.count += 1;
                return expr;
            }
        }
        expr.terms.push(Term {
            sign: Sign::Plus,
            kind: TermKind::Dice(Pool::plain(1, sides)),
        });
        expr
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sides == 100 {
            write!(f, "{}d%", self.count)?;
        } else {
            write!(f, "{}d{}", self.count, self.sides)?;
        }
        if self.explode {
            f.write_str("!")?;
        }
        match self.keep {
            Some(Keep::Highest(k)) => write!(f, "kh{k}"),
            Some(Keep::Lowest(k)) => write!(f, "kl{k}"),
            None => Ok(()),
        }
    }
}

/// The canonical spelling: `1d20+2d6kh1-3`.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            match (i, term.sign) {
                (0, Sign::Plus) => {}
                (_, Sign::Plus) => f.write_str("+")?,
                (_, Sign::Minus) => f.write_str("-")?,
            }
            match &term.kind {
                TermKind::Constant(c) => write!(f, "{c}")?,
                TermKind::Dice(pool) => write!(f, "{pool}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(text: &str) -> Pool {
        match &parse(text).unwrap().terms[0].kind {
            TermKind::Dice(p) => *p,
            other => panic!("not a pool: {other:?}"),
        }
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(pool("2d6"), Pool::plain(2, 6));
        assert_eq!(pool("d20"), Pool::plain(1, 20));
        assert_eq!(pool("D%"), Pool::plain(1, 100));
        assert_eq!(pool("4d6kh3").keep, Some(Keep::Highest(3)));
        assert_eq!(pool("4d6k3").keep, Some(Keep::Highest(3)));
        assert_eq!(pool("2d20kl1").keep, Some(Keep::Lowest(1)));
        assert!(pool("1d10!").explode);
        let both = pool("3d6!kh2");
        assert!(both.explode && both.keep == Some(Keep::Highest(2)));
        let e = parse(" 2d6 + 1d4 − 1 ").unwrap();
        assert_eq!(e.terms.len(), 3);
        assert_eq!(
            e.terms[2],
            Term {
                sign: Sign::Minus,
                kind: TermKind::Constant(1)
            }
        );
        assert_eq!(parse("-1d4").unwrap().terms[0].sign, Sign::Minus);
        assert_eq!(parse("7").unwrap().terms[0].kind, TermKind::Constant(7));
    }

    #[test]
    fn quick_dice_grow_the_last_pool_or_append() {
        let e = parse("1d6").unwrap().with_die(6);
        assert_eq!(e.to_string(), "2d6");
        assert_eq!(e.with_die(20).to_string(), "2d6+1d20");
        assert_eq!(
            parse("4d6kh3").unwrap().with_die(6).to_string(),
            "4d6kh3+1d6"
        );
        assert_eq!(
            parse("1d6-1d4").unwrap().with_die(4).to_string(),
            "1d6-1d4+1d4"
        );
        assert_eq!(
            parse("2d6+1").unwrap().with_die(100).to_string(),
            "2d6+1+1d%"
        );
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "1d20+2d6kh1-3",
            "4d6kh3",
            "2d20kl1",
            "1d10!",
            "1d%",
            "-1d4+2",
            "3d6!kl2",
        ] {
            let e = parse(text).unwrap();
            assert_eq!(e.to_string(), text);
            assert_eq!(parse(&e.to_string()).unwrap(), e);
        }
    }

    #[test]
    fn errors_name_the_problem_and_the_place() {
        use ParseErrorKind::*;
        let cases: &[(&str, usize, ParseErrorKind)] = &[
            ("", 0, Empty),
            ("   ", 0, Empty),
            ("2d", 1, MissingSides),
            ("2d6+", 3, TrailingOperator('+')),
            ("2x6", 1, Unexpected('x')),
            ("0d6", 0, ZeroDice),
            ("2d0", 2, ZeroSides),
            ("101d6", 0, TooManyDice),
            ("1d1001", 2, TooManySides),
            ("10001", 0, ConstantTooLarge),
            ("4d6kh5", 3, KeepOutOfRange { keep: 5, count: 4 }),
            ("4d6kh0", 3, KeepOutOfRange { keep: 0, count: 4 }),
            ("4d6k", 3, MissingNumber('k')),
            ("4d6kh3kl1", 6, DuplicateKeep),
            ("1d6!!", 4, DuplicateExplode),
            ("1d1!", 3, ExplodeD1),
            ("2d6 3", 4, MissingOperator),
            ("100d6+100d6+1d6", 12, TooManyTotalDice),
            ("99999999999d6", 0, TooManyDice),
        ];
        for (text, at, kind) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!((err.at, &err.kind), (*at, kind), "{text}");
        }
        let many = vec!["1"; MAX_TERMS + 1].join("+");
        assert_eq!(parse(&many).unwrap_err().kind, TooManyTerms);
    }

    #[test]
    fn error_messages_read_as_sentences() {
        let err = parse("2d6+").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the roll ends with “+”: add a die or a number after it (at character 4)"
        );
        assert_eq!(
            parse("4d6kh9").unwrap_err().kind.to_string(),
            "can keep 1 to 4 of 4 dice, not 9"
        );
    }
}
