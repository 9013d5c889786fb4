import type { Page, Locator } from "@playwright/test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { test, expect, seedCharacters, setNumber, fighter, openFighter, closeFighter, fightSheet, otherPhone, turnStatus, appReady, phone, mode } from "./fixtures";

// The live table: the GM's fight followed on each player's phone over a direct WebRTC channel,
// paired by codes (here read off the screen as QR codes, or taken as links), with no server.
// Three browser contexts are three phones; they connect over this machine's own addresses.

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
const base = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-symbaroum-v1.json"), "utf8"));
const character = (id: string, name: string, toughness: number) => ({ ...base, id, name, sheet: { ...base.sheet, toughness } });
// Both have Strong 13: Toughness at most 13.
const VARLA = character("aa00000000000001", "Varla", 13);
const BRAM = character("bb00000000000002", "Bram", 10);
const heimrBase = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-heimr-v1.json"), "utf8"));
const ASA = { ...heimrBase, id: "ab00000000000001", name: "Asa" };
const vogtBase = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-vogt-v1.json"), "utf8"));
const ILSE = { ...vogtBase, id: "cc00000000000003", name: "Ilse", sheet: { ...vogtBase.sheet, hp: 10, hp_max: 10, exhaustion: 0, statuses: [], items: [{ ...vogtBase.sheet.items[0], damage: "1d4", dtype: "slash" }] } };

/** The text of a QR code on screen (jsQR on a screenshot of it). */
async function decodeQr(code: Locator): Promise<string> {
  const png = PNG.sync.read(await code.screenshot());
  const text = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  expect(text, "the code decodes").toBeTruthy();
  return text!;
}

/** A started fight of `system` on the GM's phone: saved characters `pcs` and one quick NPC
 * (its toughness set when given). */
async function newFight(gm: Page, name: string, system: string, pcs: { name: string }[], npc: string, toughness?: number) {
  await seedCharacters(gm, pcs as { id: string }[]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill(name);
  await gm.getByLabel("Rule system").selectOption(system);
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  for (const pc of pcs) await gm.getByRole("button", { name: `Add ${pc.name}` }).tap();
  await gm.getByLabel("Name", { exact: true }).fill(npc);
  if (toughness !== undefined) await setNumber(gm, "Toughness", toughness);
  await gm.getByRole("button", { name: `Add ${npc}` }).tap();
  await gm.getByTestId("next").tap();
}

/** The GM's fight: Varla, Bram and a goblin of Toughness 12, started. */
async function gmFight(gm: Page) {
  await newFight(gm, "Ambush", "symbaroum", [VARLA, BRAM], "Goblin", 12);
  await expect(turnStatus(gm)).toContainText("Round 1");
}

const seat = (gm: Page, n: number) => gm.locator(`li.seat[data-seat="${n}"]`);

/** Pairs a player's phone with the GM's seat `n`: the GM's code to the player, the player's
 * answer back, by QR code or by link. */
async function pair(gm: Page, player: Page, n: number, byQr: boolean) {
  const s = seat(gm, n);
  await expect(s.getByTestId("table-code")).toBeVisible({ timeout: 15_000 });
  const invitation = byQr ? await decodeQr(s.getByTestId("qr")) : await s.getByTestId("table-code").inputValue();
  expect(invitation).toContain("#share=1.");
  await player.goto(invitation);
  await expect(player).toHaveURL(/\/table$/);
  await expect(player.getByTestId("answer-code")).toBeVisible({ timeout: 15_000 });
  const answer = byQr ? await decodeQr(player.getByTestId("qr")) : await player.getByTestId("answer-code").inputValue();
  const paste = gm.getByTestId("answer-paste");
  await paste.fill(answer);
  await paste.blur();
  await expect(player.getByText("Connected to the GM’s phone.")).toBeVisible({ timeout: 15_000 });
}

async function damage(gm: Page, who: string, n: number) {
  await openFighter(gm, who);
  await setNumber(gm, "Amount", n);
  await fightSheet(gm).getByTestId("damage").tap();
  await closeFighter(gm);
}

const row = (p: Page, name: string) => p.getByTestId("table-order").locator("li.fighter").filter({ hasText: name });

test("two players pair with the GM's phone, by QR code and by link, and follow the fight; NPC numbers stay on the GM's phone", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  const two = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await seedCharacters(two.page, [BRAM]);
  await gmFight(gm);

  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, true);
  await expect(seat(gm, 0)).toContainText("Connected: Varla");
  await gm.getByRole("button", { name: "Add a player" }).tap();
  await pair(gm, two.page, 1, false);
  await expect(seat(gm, 1)).toContainText("Connected: Bram");
  await expect(gm.getByTestId("table-lines")).toContainText("Player 2 joined: Bram.");

  // Each phone shows the round and turn as the GM's does, its own character in full.
  const status = await turnStatus(gm).textContent();
  for (const p of [one.page, two.page]) await expect(p.getByTestId("table-turn")).toHaveText(status!);
  await expect(one.page.getByTestId("own")).toContainText("Varla");
  await expect(one.page.getByTestId("own")).toContainText("Toughness 13/13");
  await expect(two.page.getByTestId("own")).toContainText("Toughness 10/13");
  await expect(row(one.page, "Varla")).toContainText("(you)");
  await expect(row(one.page, "Bram")).toContainText("10/13");

  // The GM hurts the goblin and Varla; the players see it at once, the goblin as a word.
  await damage(gm, "Goblin", 5);
  await expect(fighter(gm, "Goblin")).toContainText("7/12");
  for (const p of [one.page, two.page]) {
    await expect(row(p, "Goblin")).toContainText("hurt");
    await expect(p.getByTestId("table-log")).toContainText("Goblin takes 5 damage: hurt");
  }
  await damage(gm, "Varla", 4);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 9/13");
  await expect(row(two.page, "Varla")).toContainText("9/13");
  // Varla's player's saved character follows, says so, and can be undone on that phone; the
  // undo stays until the fight changes Toughness again.
  const saved = (p: Page) => p.evaluate((k) => JSON.parse(localStorage.getItem(k)!).sheet.toughness, `rollsheet.char.${VARLA.id}`);
  await expect.poll(() => saved(one.page)).toBe(9);
  await expect(one.page.getByTestId("followed")).toContainText("Your sheet of Varla took from the fight: Toughness 13 → 9.");
  await one.page.getByRole("button", { name: "Undo on my sheets" }).tap();
  await expect.poll(() => saved(one.page)).toBe(13);
  await gm.getByTestId("next").tap();
  const next = await turnStatus(gm).textContent();
  expect(next).not.toBe(status);
  for (const p of [one.page, two.page]) await expect(p.getByTestId("table-turn")).toHaveText(next!);
  expect(await saved(one.page), "an unrelated step leaves the undo alone").toBe(13);
  await damage(gm, "Varla", 1);
  await expect.poll(() => saved(one.page)).toBe(8);
  expect(await saved(two.page).catch(() => "none"), "Bram's phone has no Varla").toBe("none");

  // The goblin's numbers are nowhere on a player's phone: not on screen, not in what it keeps.
  for (const p of [one.page, two.page]) {
    const everything = await p.evaluate(() => document.body.innerHTML + JSON.stringify(localStorage));
    for (const secret of ["7/12", "12 → 7", "Toughness 12 → 7"]) expect(everything).not.toContain(secret);
    expect(everything).toContain("Goblin");
  }
  await one.context.close();
  await two.context.close();
});

test("a player's phone reloaded mid-fight keeps what it saw, rejoins and catches up; after the GM's reload the fight is kept and players rejoin", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await gmFight(gm);
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await damage(gm, "Varla", 2);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 11/13");

  // The player's phone reloads: the last view is still there, read-only, with Rejoin.
  await one.page.reload();
  await expect(one.page.getByTestId("own")).toContainText("Toughness 11/13");
  await expect(one.page.getByText(/Disconnected from the GM’s phone/)).toBeVisible();
  await expect(seat(gm, 0)).toContainText("Disconnected", { timeout: 20_000 });
  await expect(gm.getByTestId("table-lines")).toContainText("Player 1 disconnected.");

  // The fight goes on without them; then they rejoin with a new code and catch up.
  await damage(gm, "Goblin", 3);
  await damage(gm, "Varla", 1);
  await one.page.getByRole("button", { name: "Rejoin" }).tap();
  await expect(one.page.getByRole("button", { name: "Scan a code" })).toBeVisible();
  await seat(gm, 0).getByRole("button", { name: "New code" }).tap();
  await pair(gm, one.page, 0, false);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 10/13");
  await expect(one.page.getByTestId("table-log")).toContainText("Goblin takes 3 damage: hurt");
  await expect(gm.getByTestId("table-lines").locator("li")).toHaveText(["Player 1 joined: Varla.", "Player 1 disconnected.", "Player 1 joined: Varla."].reverse());

  // The GM's phone reloads: the fight is stored, the table closed; the player is told, and
  // rejoins a table opened again.
  await gm.reload();
  await expect(fighter(gm, "Varla")).toContainText("10/13");
  await expect(one.page.getByText(/Disconnected from the GM’s phone/)).toBeVisible({ timeout: 20_000 });
  await expect(one.page.getByTestId("own")).toContainText("Toughness 10/13");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await one.page.getByRole("button", { name: "Rejoin" }).tap();
  // A player who changes their mind while showing their answer starts over, and pairs later.
  await expect(seat(gm, 0).getByTestId("table-code")).toBeVisible({ timeout: 15_000 });
  await one.page.goto(await seat(gm, 0).getByTestId("table-code").inputValue());
  await expect(one.page.getByTestId("answer-code")).toBeVisible({ timeout: 15_000 });
  await one.page.getByRole("button", { name: "Start over" }).tap();
  await expect(one.page.getByRole("button", { name: "Scan a code" })).toBeVisible();
  await expect(one.page.getByTestId("own"), "the last view is still shown").toContainText("Toughness 10/13");
  await pair(gm, one.page, 0, true);
  await damage(gm, "Varla", 1);
  await expect(one.page.getByTestId("own")).toContainText("Toughness 9/13");
  await one.context.close();
});

/** A hostile phone: its own WebRTC code, written here independently of the app, answering the
 * GM's invitation; it returns its answer link and keeps the channel as `window.peer`. */
async function rawPeer(p: Page, invitation: string): Promise<{ link: string; fight: string }> {
  return p.evaluate(async (invitation) => {
    const b64d = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
    const b64e = (b: Uint8Array | number[]) => btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const through = async (bytes: Uint8Array, t: TransformStream) => new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(t)).arrayBuffer());
    const code = JSON.parse(new TextDecoder().decode(await through(b64d(invitation.split("#share=1.")[1]), new DecompressionStream("deflate"))));
    const [ufrag, pwd, fp, setup, ...cands] = code.sdp.split(" ");
    let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n";
    cands.forEach((c: string, i: number) => { const k = c.lastIndexOf("/"); sdp += `a=candidate:${i + 1} 1 udp ${2113937151 - i * 256} ${c.slice(0, k)} ${c.slice(k + 1)} typ host generation 0\r\n`; });
    const hex = [...b64d(fp)].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
    sdp += `a=ice-ufrag:${ufrag}\r\na=ice-pwd:${pwd}\r\na=ice-options:trickle\r\na=fingerprint:sha-256 ${hex}\r\na=setup:${setup === "x" ? "actpass" : "active"}\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n`;
    const pc = new RTCPeerConnection({ iceServers: [] });
    const w = window as any;
    w.got = [];
    pc.ondatachannel = (e) => { w.peer = e.channel; e.channel.onmessage = (m) => w.got.push(m.data); };
    await pc.setRemoteDescription({ type: "offer", sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise<void>((ok) => { const done = () => pc.iceGatheringState === "complete" && ok(); pc.onicegatheringstatechange = done; done(); });
    const mine = pc.localDescription!.sdp.split("\r\n");
    const attr = (n: string) => mine.find((l) => l.startsWith(n))!.slice(n.length);
    let short = `${attr("a=ice-ufrag:")} ${attr("a=ice-pwd:")} ${b64e(attr("a=fingerprint:sha-256 ").split(":").map((h) => parseInt(h, 16)))} a`;
    for (const l of mine) {
      const f = l.startsWith("a=candidate:") ? l.slice(12).split(" ") : [];
      if (f[1] === "1" && f[2]?.toLowerCase() === "udp") short += ` ${f[4]}/${f[5]}`;
    }
    const answer = JSON.stringify({ ...code, answer: true, sdp: short });
    const packed = await through(new TextEncoder().encode(answer), new CompressionStream("deflate"));
    w.pc = pc;
    return { link: `${location.origin}/#share=1.${b64e([...packed])}`, fight: code.fight };
  }, invitation);
}

test("a peer sending garbage, oversized, wrong-version, other-fight, out-of-turn and other-combatant messages is refused, each with a line, and nothing changes", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(60_000);
  const errors: string[] = [];
  gm.on("pageerror", (e) => errors.push(e.message));
  const raw = await otherPhone(browser, baseURL);
  await raw.page.goto("/");
  await gmFight(gm);
  await damage(gm, "Goblin", 5);
  const fightKey = `rollsheet.enc.${gm.url().split("/combat/")[1]}`;
  const stored = () => gm.evaluate((k) => localStorage.getItem(k), fightKey);
  const before = await stored();
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await expect(seat(gm, 0).getByTestId("table-code")).toBeVisible({ timeout: 15_000 });
  const { link, fight } = await rawPeer(raw.page, await seat(gm, 0).getByTestId("table-code").inputValue());
  const paste = gm.getByTestId("answer-paste");
  await paste.fill(link);
  await paste.blur();
  await expect(seat(gm, 0)).toContainText("waiting for the player’s phone", { timeout: 15_000 });

  const say = (text: string) => raw.page.evaluate((t) => (window as any).peer.send(t), text);
  const lines = gm.getByTestId("table-lines");
  await say("garbage");
  await expect(lines).toContainText("Player 1: a message was refused: it is not a message of the table (not an object).");
  await say("{" + " ".repeat(20_000) + "}");
  await expect(lines).toContainText("Player 1: a message was refused: a message of 20 KB, over the limit of 16 KB.");
  await say(JSON.stringify({ v: 12, have: 0, token: "t", fight }));
  await expect(lines).toContainText("table format 12");
  // Not only a greeting: every message's version is checked (an older phone's resync).
  await say(JSON.stringify({ v: 2, have: 0 }));
  await expect(lines).toContainText("table format 2");
  await say(JSON.stringify({ v: 11, have: 0, chars: ["x"] }));
  await expect(lines).toContainText("a greeting without its token");
  await say(JSON.stringify({ v: 11, have: 0, token: "t", fight: "another", chars: [] }));
  await expect(lines).toContainText("Player 1: refused, paired for another fight.");
  await expect.poll(() => raw.page.evaluate(() => (window as any).got.join("\n"))).toContain("paired for another fight");
  expect(await stored(), "nothing stored changed").toBe(before);

  // A proper greeting gets the fight as this phone may see it: no NPC numbers on the wire.
  await say(JSON.stringify({ v: 11, have: 0, token: "t", fight, chars: [VARLA.id] }));
  await expect(lines).toContainText("Player 1 joined: Varla.");
  await expect.poll(() => raw.page.evaluate(() => (window as any).got.length)).toBe(2);
  const wire = await raw.page.evaluate(() => (window as any).got[1]);
  expect(JSON.parse(wire).view.own[0].name).toBe("Varla");
  expect(wire).toContain("Goblin takes 5 damage: hurt");
  expect(wire).not.toContain("12 → 7");
  expect(await stored()).toBe(before);

  // Requests: raw events (a Symbaroum fight is refereed whole: only intents), for another's
  // combatant: each refused with a line and an answer, nothing waits for the GM and nothing is
  // stored.
  if ((await turnStatus(gm).textContent())!.includes("Varla’s turn")) await gm.getByTestId("next").tap();
  const now = (await turnStatus(gm).textContent())!.match(/· (.+)’s turn/)![1];
  const ask = (n: number, who: number, event: unknown) => say(JSON.stringify({ v: 11, have: 0, ask: [n, who, event] }));
  // An intent: (number, combatant, [kind, choices…], dice as [faces, value]).
  const act = (n: number, who: number, code: number[], dice: [number, number][]) =>
    say(JSON.stringify({ v: 11, have: 0, act: [n, who, code, dice] }));
  const after = await stored();
  await ask(1, 1, { Note: "Varla strikes" });
  await expect(lines).toContainText("Player 1: a request was refused: a change the rules did not make (this game’s actions are intents).");
  await ask(2, 2, { Note: "Bram strikes" });
  await expect(lines).toContainText("Player 1: a request was refused: Bram is not one of this player’s characters.");
  await ask(3, 1, { Damage: [[3], 99_999_999] });
  await ask(4, 1, "End");
  await expect(lines.locator("li").first()).toContainText("Player 1: a request was refused:");
  // The rules referee intents: out of its turn it may not end the turn; a death test it may not
  // take (not dying); dice other than the roll's; a raw death test; a repeated number; an
  // action this version does not know; an older phone's request.
  await act(5, 1, [0], []);
  await act(6, 1, [101], [[20, 3], [4, 1]]);
  await ask(7, 1, { Death: [1, 20, 4] });
  await ask(8, 3, { Place: [3, null] });
  await act(8, 1, [0], []);
  await act(9, 1, [999], []);
  await say(JSON.stringify({ v: 2, have: 0, ask: [10, 1, "Next"] }));
  await expect(lines).toContainText("table format 2");
  await expect.poll(() => raw.page.evaluate(() => (window as any).got.filter((m: string) => m.includes('"asked"')).map((m: string) => JSON.parse(m)))).toEqual([
    { v: 11, seq: 0, asked: 1, why: "a change the rules did not make (this game’s actions are intents)" },
    { v: 11, seq: 0, asked: 2, why: "Bram is not one of this player’s characters" },
    { v: 11, seq: 0, asked: 3, why: "a change the rules did not make (this game’s actions are intents)" },
    { v: 11, seq: 0, asked: 4, why: "a change the rules did not make (this game’s actions are intents)" },
    { v: 11, seq: 0, asked: 5, why: "it is not Varla’s turn" },
    { v: 11, seq: 0, asked: 6, why: "not something this combatant can do in this fight" },
    { v: 11, seq: 0, asked: 7, why: "a change the rules did not make (this game’s actions are intents)" },
    { v: 11, seq: 0, asked: 8, why: "that combatant is not one of this player’s characters" },
    { v: 11, seq: 0, asked: 8, why: "a request this phone already sent (each is answered once)" },
  ]);
  await expect(gm.getByTestId("asks")).toHaveCount(0);
  expect(await stored(), "nothing stored changed").toBe(after);
  await expect(gm.locator("#fatal")).toBeHidden();
  expect(errors).toEqual([]);
  await raw.context.close();
});

test("a Tempo fight (rounds from 0) followed on a player's phone, whose saved character takes the damage", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(60_000);
  const ilse = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-tempo-v1.json"), "utf8"));
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [ilse]);
  await newFight(gm, "Duel at dawn", "tempo", [ilse], "Brigand");
  await expect(turnStatus(gm)).toContainText("Round 0");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, true);
  await expect(one.page.getByTestId("table-turn")).toHaveText((await turnStatus(gm).textContent())!);
  await expect(one.page.getByTestId("own")).toContainText("Health 12/14");
  await expect(one.page.getByTestId("own")).toContainText("AP 12");
  // Before the start, initiative and "prepared" are the GM's: the player's panel has neither
  // (its phone asks nothing before the fight has started); its status is there.
  const mine = one.page.getByTestId("my-actions");
  await expect(mine.getByTestId("status-line")).toContainText("12 AP");
  await expect(mine.getByTestId("set-init")).toHaveCount(0);
  await expect(mine.getByTestId("prepared")).toHaveCount(0);

  await damage(gm, ilse.name, 5);
  await damage(gm, "Brigand", 2);
  await expect(one.page.getByTestId("own")).toContainText("Health 7/14");
  await expect.poll(() => one.page.evaluate((k) => JSON.parse(localStorage.getItem(k)!).sheet.health, `rollsheet.char.${ilse.id}`)).toBe(7);
  await expect(row(one.page, "Brigand")).toContainText(/hurt|bloodied/);
  const gmBrigand = (await fighter(gm, "Brigand").locator(".fighter-hp").textContent())!.trim();
  expect(await one.page.evaluate(() => document.body.innerHTML + JSON.stringify(localStorage))).not.toContain(gmBrigand);
  await gm.getByTestId("next").tap();
  await expect(one.page.getByTestId("table-turn")).toHaveText((await turnStatus(gm).textContent())!);
  await one.context.close();
});

test("an NPC the GM hides appears on the players' phones at its first turn; one whose numbers the GM shows, with them", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(60_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await gmFight(gm);
  await gm.getByLabel("Name", { exact: true }).fill("Ambusher");
  await gm.getByRole("button", { name: "Add Ambusher" }).tap();
  const choice = (name: string, what: string) => gm.locator(`li[data-npc="${name}"]`).getByRole("button", { name: what });
  await choice("Ambusher", "Hidden").tap();
  await expect(choice("Ambusher", "Hidden")).toHaveAttribute("aria-pressed", "true");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await expect(row(one.page, "Goblin")).toBeVisible();
  const html = () => one.page.evaluate(() => document.body.innerHTML + JSON.stringify(localStorage));
  expect(await html()).not.toContain("Ambusher");
  for (let i = 0; i < 6 && !(await turnStatus(gm).textContent())!.includes("Ambusher’s turn"); i++) {
    await gm.getByTestId("next").tap();
  }
  await expect(turnStatus(gm)).toContainText("Ambusher’s turn");
  await expect(row(one.page, "Ambusher")).toContainText("unhurt");
  await expect(one.page.getByTestId("table-turn")).toContainText("Ambusher’s turn");

  await damage(gm, "Goblin", 4);
  await expect(row(one.page, "Goblin")).toContainText("hurt");
  await choice("Goblin", "Numbers shown").tap();
  await expect(row(one.page, "Goblin")).toContainText("8/12");
  await expect(one.page.getByTestId("table-log")).toContainText("Goblin takes 4 damage: Toughness 12 → 8");
  await one.context.close();
});

test("a player asks from their phone: an attack with the GM's odds, accepted into the fight (and undoable); another refused", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await gmFight(gm);
  // Players roll against an NPC once the GM shows its numbers.
  await gm.locator(`li[data-npc="Goblin"]`).getByRole("button", { name: "Numbers shown" }).tap();
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  for (let i = 0; i < 6 && !(await turnStatus(gm).textContent())!.includes("Varla’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(one.page.getByTestId("table-turn")).toContainText("Varla’s turn");

  // The odds on the player's phone are the GM's for the same attack.
  const mine = one.page.getByTestId("my-actions");
  await mine.locator("#attack-target").selectOption({ label: "Goblin" });
  await openFighter(gm, "Varla");
  await fightSheet(gm).locator("#attack-target").selectOption({ label: "Goblin" });
  const odds = (await fightSheet(gm).getByTestId("hit-chance").textContent())!;
  await closeFighter(gm);
  await expect(mine.getByTestId("hit-chance")).toHaveText(odds);
  await one.page.screenshot({ path: "test-results/screens/table-ask-player.png", fullPage: true });

  // Rolled on the player's phone, sent as an intent with its dice; the GM's phone resolves it
  // again and shows what it would log; the GM accepts it.
  await mine.getByRole("button", { name: "Roll attack" }).tap();
  await expect(one.page.getByTestId("my-asks")).toContainText("Waiting for the GM…");
  await expect(one.page.getByTestId("my-asks")).toContainText("Varla attacks Goblin: d20");
  const asks = gm.getByTestId("asks");
  await expect(asks).toContainText("Player 1 asks for Varla: Varla uses 1 Combat Varla attacks Goblin: d20");
  const line = (await asks.textContent())!.match(/Varla attacks Goblin: d20 \d+ [≤>] \d+, (hit|miss)/)![0];
  expect((await one.page.getByTestId("my-asks").textContent())!).toContain(line);
  await gm.screenshot({ path: "test-results/screens/table-ask-gm.png" });
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(asks).toHaveCount(0);
  await expect(gm.getByTestId("fight-log")).toContainText(line);
  await expect(one.page.getByTestId("my-asks")).toContainText("Accepted: it is in the fight.");
  await expect(one.page.getByTestId("table-log")).toContainText(line);
  // A step like any other: the GM's undo takes it back on every phone.
  await gm.getByRole("button", { name: "Undo" }).tap();
  await expect(gm.getByTestId("fight-log")).not.toContainText(line);
  await expect(one.page.getByTestId("table-log")).not.toContainText(line);

  // Ending the turn, refused by the GM: the turn stays.
  await one.page.getByRole("button", { name: "End turn", exact: true }).tap();
  await expect(asks).toContainText("Player 1 asks for Varla:");
  await asks.getByRole("button", { name: "Refuse" }).tap();
  await expect(one.page.getByTestId("my-asks")).toContainText("Refused: the GM said no.");
  await expect(gm.getByTestId("table-lines")).toContainText("Player 1: a request was refused: the GM said no.");
  await expect(turnStatus(gm)).toContainText("Varla’s turn");
  // Accepted, it ends the turn on both phones; the panel's End turn leaves.
  await one.page.getByRole("button", { name: "End turn", exact: true }).tap();
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(turnStatus(gm)).not.toContainText("Varla’s turn");
  await expect(one.page.getByTestId("table-turn")).toHaveText((await turnStatus(gm).textContent())!);
  await expect(one.page.getByRole("button", { name: "End turn", exact: true })).toHaveCount(0);
  await one.context.close();
});

test("Bo Vogt at the table: the player declares from their phone, takes only the declared action on their turn, and rolls on the death table in another's turn", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [ILSE]);
  await newFight(gm, "Tollgate", "vogt", [ILSE], "Goblin");
  await expect(turnStatus(gm)).toContainText("Round 1 · declare actions");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  // While actions are declared: the player declares from the phone; no action is taken yet.
  await expect(mine.getByRole("button", { name: "Roll damage and apply" })).toBeDisabled();
  await expect(mine).toContainText("Not now: actions are being declared; it acts on its turn.");
  await mine.getByRole("button", { name: "Declare: Defend (+2 AR) · 1d4" }).tap();
  await expect(asks).toContainText("Player 1 asks for Ilse: Ilse will defend (1d4)");
  await one.page.screenshot({ path: "test-results/screens/table-vogt-declare-player.png", fullPage: true });
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Ilse will defend (1d4)");
  await expect(gm.getByTestId("before-chances")).toContainText("Ilse (Defend 1d4)");
  // Rolled; on Ilse's turn only the declared action is hers to take.
  await gm.getByTestId("roll-initiative").tap();
  for (let i = 0; i < 4 && !(await turnStatus(gm).textContent())!.includes("Ilse’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(one.page.getByTestId("table-turn")).toContainText("Ilse’s turn");
  await expect(mine.getByRole("button", { name: "Roll damage and apply" })).toBeDisabled();
  await expect(mine).toContainText("Not now: Ilse declared defend this round; reevaluate to attack first.");
  await mine.getByRole("button", { name: "Defend: +2 AR" }).tap();
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(row(one.page, "Ilse")).toContainText("Defending");
  await expect(mine).toContainText("Not now: Ilse has taken this turn’s action.");
  // Out of her turn, at exhaustion 4, the death and dismemberment roll is hers to make.
  await gm.getByTestId("next").tap();
  await expect(one.page.getByTestId("table-turn")).not.toContainText("Ilse’s turn");
  for (const n of [20, 1, 1, 1]) await damage(gm, "Ilse", n);
  await expect(gm.getByTestId("fight-log")).toContainText("exhaustion 4: a roll on the table is due");
  const table = mine.getByRole("button", { name: /Roll on the death and dismemberment table \(d8\) · 37\.5%/ });
  await table.tap();
  await expect(asks).toContainText("on the death and dismemberment table");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText(/Ilse rolls \d on the death and dismemberment table/);
  await expect(one.page.getByTestId("table-log")).toContainText(/Ilse rolls \d on the death and dismemberment table/);
  // One roll for the level: then none is due (or, on 6+, she is dead and offered nothing).
  const d8 = Number((await gm.getByTestId("fight-log").textContent())!.match(/Ilse rolls (\d) on the death/)![1]);
  if (d8 >= 6) await expect(table).toHaveCount(0);
  else {
    await expect(table).toBeDisabled();
    await expect(mine).toContainText("Not now: no roll on the table is due.");
  }
  await one.page.screenshot({ path: "test-results/screens/table-vogt-table-player.png", fullPage: true });
  await one.context.close();
});

test("Symbaroum at the table: a free attack from the player's phone out of turn; the pain-threshold choice of a hit on their character made on their phone", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(120_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await seedCharacters(gm, [VARLA]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Ford");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Varla" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Brute");
  await setNumber(gm, "Accurate", 20);
  await setNumber(gm, "Quick", 20);
  await gm.locator("#npc-weapon").fill("1d4+10");
  await gm.getByRole("button", { name: "Add Brute" }).tap();
  await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Brute’s turn");
  await gm.locator(`li[data-npc="Brute"]`).getByRole("button", { name: "Numbers shown" }).tap();
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  // In the Brute's turn: Varla's ordinary attack waits for her turn; a free attack (the Brute
  // withdrawing) is hers to roll now, and the GM's phone takes it.
  await expect(mine.getByRole("button", { name: "Roll attack" })).toBeDisabled();
  await expect(mine).toContainText("Not now: only on Varla’s own turn.");
  // Review T6-3 (issue 56): a free attack needs its trigger: the Brute withdraws from melee.
  await openFighter(gm, "Brute");
  await fightSheet(gm).getByRole("button", { name: "Withdraw from melee" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Brute withdraws from melee");
  await closeFighter(gm);
  await mine.getByRole("button", { name: "Roll a free attack" }).tap();
  await expect(asks).toContainText("Player 1 asks for Varla: Varla attacks Brute");
  await expect(asks).toContainText("(a free attack)");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("(a free attack)");
  // The Brute hits Varla over her pain threshold (7): the choice is her player's, on her phone.
  const choice = mine.getByRole("button", { name: /^Pain threshold: knock Varla down/ });
  let over = false;
  for (let i = 0; i < 40 && !over; i++) {
    await openFighter(gm, "Brute");
    await fightSheet(gm).locator("#attack-target").selectOption({ label: "Varla" });
    await fightSheet(gm).getByRole("button", { name: "Roll attack" }).tap();
    await expect(fightSheet(gm).getByTestId("attack-result")).toContainText("Brute attacks Varla");
    await closeFighter(gm);
    over = (await gm.getByTestId("fight-log").textContent())!.includes("Over Varla’s pain threshold: Varla chooses");
    if (!over) await gm.getByRole("button", { name: "Undo" }).tap();
  }
  expect(over, "a hit over the pain threshold within 40 attacks").toBe(true);
  await expect(choice).toBeEnabled();
  await one.page.screenshot({ path: "test-results/screens/table-pain-choice-player.png", fullPage: true });
  await choice.tap();
  await expect(asks).toContainText("Player 1 asks for Varla: Varla: Prone");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(row(one.page, "Varla")).toContainText("Prone");
  await expect(choice).toHaveCount(0);
  await one.context.close();
});

test("Heimr at the table: a defence pre-rolled on the player's phone in another's turn, taken by the GM's phone; never rolled again while it stands", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [ASA]);
  await seedCharacters(gm, [ASA]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Ford");
  await gm.getByLabel("Rule system").selectOption("heimr");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Asa" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Bandit");
  await gm.getByRole("button", { name: "Add Bandit" }).tap();
  await gm.getByTestId("roll-initiative").tap();
  await gm.getByTestId("next").tap();
  for (let i = 0; i < 3 && !(await turnStatus(gm).textContent())!.includes("Bandit’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Bandit’s turn");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  const dodge = mine.getByRole("button", { name: /^Roll dodge · C/ });
  await dodge.tap();
  await expect(asks).toContainText("Player 1 asks for Asa: Asa readies a dodge");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Asa readies a dodge");
  await expect(one.page.getByTestId("table-log")).toContainText("Asa readies a dodge");
  // Shown, it stands until an attack uses it or Asa's turn begins: no second roll.
  await expect(dodge).toBeDisabled();
  await expect(mine).toContainText(/Not now: its dodge -?\d+ stands until an attack uses it or its next turn begins\./);
  await one.page.screenshot({ path: "test-results/screens/table-heimr-defence-player.png", fullPage: true });

  // Heimr #25: taking the attack undefended is Asa's own choice, made on her phone; the GM's
  // attack then meets no defence, her dodge kept, and the choice is used up.
  await mine.getByRole("button", { name: "Take the next attack undefended" }).tap();
  await expect(asks).toContainText("Player 1 asks for Asa: Asa will take the next attack without defending");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(mine.getByRole("button", { name: "Take the next attack undefended" })).toBeDisabled();
  await openFighter(gm, "Bandit");
  await fightSheet(gm).getByRole("combobox", { name: "Attack", exact: true }).selectOption({ label: "Brawl: hit 1" });
  await expect(fightSheet(gm).getByText("The target takes it undefended")).toHaveCount(0);
  await fightSheet(gm).getByTestId("roll-attack").tap();
  await expect(fightSheet(gm).getByTestId("attack-result")).toContainText(/Bandit attacks Asa: .*(takes it undefended|fails on fatigue)/);
  await closeFighter(gm);
  await expect(mine.getByRole("button", { name: "Take the next attack undefended" })).toBeEnabled();
  await expect(mine).toContainText(/Not now: its dodge -?\d+ stands/);
  await one.context.close();
});

/** A Tempo fight on the GM's phone: saved Tempo characters `pcs` (the first is the player's,
 * seeded on `player` too) with their initiatives, all starting On Guard, and a quick NPC Brigand
 * (melee weapon 5 AP, On Guard, initiative 8) whose turn it is; the player's phone paired. */
async function tempoTable(gm: Page, player: Page, fight: string, pcs: [any, number][]) {
  await seedCharacters(player, [pcs[0][0]]);
  await seedCharacters(gm, pcs.map((p) => p[0]));
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill(fight);
  await gm.getByLabel("Rule system").selectOption("tempo");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  for (const [pc] of pcs) await gm.getByRole("button", { name: `Add ${pc.name}` }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Brigand");
  await setNumber(gm, "Melee weapon AP (0: none)", 5);
  await gm.getByText("Initiated or prepared: starts On Guard").tap();
  await gm.getByRole("button", { name: "Add Brigand" }).tap();
  for (const [name, init] of [...pcs.map(([pc, n]) => [pc.name, n] as const), ["Brigand", 8] as const]) {
    await openFighter(gm, name);
    if (name !== "Brigand") await fightSheet(gm).getByText("Initiated or prepared: starts On Guard").tap();
    await setNumber(gm, "Initiative", init);
    await fightSheet(gm).getByTestId("set-init").tap();
    await closeFighter(gm);
  }
  await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Brigand’s turn");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, player, 0, false);
}

test("Tempo at the table: the GM declares the brigand's attack, the player answers from their phone with a reaction, the GM's exchange takes it", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const ilse = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-tempo-v1.json"), "utf8"));
  const one = await otherPhone(browser, baseURL);
  await tempoTable(gm, one.page, "Duel", [[ilse, 3]]);

  // The GM declares the brigand's melee attack on Ilse: her phone asks for her answer.
  await openFighter(gm, "Brigand");
  await fightSheet(gm).getByRole("button", { name: "Melee Attack · 5 AP" }).tap();
  await fightSheet(gm).getByRole("combobox", { name: "Against" }).selectOption({ label: ilse.name });
  await fightSheet(gm).getByTestId("declare").tap();
  await expect(fightSheet(gm).getByTestId("answer-wait")).toContainText(`Waiting for ${ilse.name}’s answer`);
  const mine = one.page.getByTestId("my-actions");
  await expect(mine.getByTestId("facing")).toHaveText(`Brigand declares a melee attack against ${ilse.name}: its answer?`);
  // Each answer the rules offer her: no reaction, or a reaction she can pay for.
  await expect(mine.getByRole("button", { name: "No reaction" })).toBeEnabled();
  await mine.getByRole("button", { name: /^Parry · \d+ AP/ }).tap();
  await one.page.screenshot({ path: "test-results/screens/table-answer-player.png", fullPage: true });

  // Out of her turn, the answer is taken; the GM accepts it from the open sheet.
  const asks = fightSheet(gm).getByTestId("asks");
  await expect(asks).toContainText(`Player 1 asks for ${ilse.name}: ${ilse.name} answers Brigand’s melee attack with Parry`);
  await gm.screenshot({ path: "test-results/screens/table-answer-gm.png" });
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(one.page.getByTestId("my-asks")).toContainText("Accepted: it is in the fight.");
  await expect(fightSheet(gm).getByTestId("answer-wait")).toHaveText(`${ilse.name} answers with Parry.`);
  await expect(mine.getByTestId("facing")).toHaveCount(0);
  // Rolled on the GM's phone with her parry (the actor picks no reaction); the declaration is over.
  await expect(fightSheet(gm).getByRole("combobox", { name: "Their reaction" })).toHaveCount(0);
  await fightSheet(gm).getByTestId("resolve").tap();
  await expect(fightSheet(gm).getByTestId("exchange-result")).toContainText(`${ilse.name} reacts: Parry`);
  await expect(fightSheet(gm).getByTestId("answer-wait")).toHaveText("");
  await expect(one.page.getByTestId("table-log")).toContainText(`${ilse.name} answers Brigand’s melee attack with Parry`);
  await closeFighter(gm);
  await one.context.close();
});

test("Tempo refereed (#3): another opponent reacts too — the player's Ilse counter-attacks the brigand's attack on Kai from her phone, her parry refused with the reason; the GM's exchange shows her odds and rolls her reaction", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const ilse = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-tempo-v1.json"), "utf8"));
  const kai = { ...ilse, id: "c-tempo-kai", name: "Kai" };
  const one = await otherPhone(browser, baseURL);
  await tempoTable(gm, one.page, "Ambush", [[ilse, 3], [kai, 2]]);

  // The brigand's attack is declared against Kai; Ilse, beside him, may react too.
  await openFighter(gm, "Brigand");
  const sheet = fightSheet(gm);
  await sheet.getByRole("button", { name: "Melee Attack · 5 AP" }).tap();
  await sheet.getByRole("combobox", { name: "Against" }).selectOption({ label: "Kai" });
  await sheet.getByTestId("declare").tap();
  const mine = one.page.getByTestId("my-actions");
  await expect(mine.getByTestId("facing")).toHaveText(`Brigand declares a melee attack against Kai: ${ilse.name} may react too`);
  // A parry guards only the one the attack is against; a counter-attack at the brigand is hers.
  await expect(mine.getByRole("button", { name: "Parry", exact: true })).toBeDisabled();
  await expect(mine).toContainText("Not now: Parry guards only the one it is against (Kai).");
  // Priced by her long sword (5 AP), on credit: what it does to her next recovery.
  await expect(mine.getByTestId("reaction-note")).toHaveText("5 AP: AP 12 → 7; at the end of its turn it regains 12, to 12 (12 without this)");
  await mine.getByRole("button", { name: /^Counter-Attack against Brigand · 5 AP/ }).tap();
  await one.page.screenshot({ path: "test-results/screens/table-tempo-react-too-player.png", fullPage: true });
  await one.page.emulateMedia({ colorScheme: "dark" });
  await mine.screenshot({ path: "test-results/screens/table-tempo-react-too-player-dark.png" });
  await one.page.emulateMedia({ colorScheme: "light" });
  const asks = sheet.getByTestId("asks");
  await expect(asks).toContainText(`Player 1 asks for ${ilse.name}: ${ilse.name} reacts too, to Brigand’s melee attack: Counter-Attack`);
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(mine.getByTestId("facing")).toHaveCount(0);
  // Kai's answer (the GM's here); the exchange shows Ilse's rows from her result less the brigand's.
  await sheet.getByRole("button", { name: "No reaction" }).tap();
  await expect(sheet.getByTestId("answer-wait")).toHaveText(`Kai does not react. ${ilse.name} reacts too: Counter-Attack.`);
  await expect(sheet.getByTestId("exchange-cost")).toContainText(`${ilse.name} paid 5 AP`);
  await expect(sheet.getByTestId("exchange-odds")).toContainText(new RegExp(`Counter-Attack \\(${ilse.name} \\+1, too\\): Miss [\\d.]+% · Hit [\\d.]+% · Critical Hit [\\d.]+%`));
  await gm.screenshot({ path: "test-results/screens/table-tempo-react-too-gm.png", fullPage: true });
  await sheet.getByTestId("resolve").tap();
  await expect(sheet.getByTestId("exchange-result")).toContainText(`${ilse.name} reacts too: Counter-Attack`);
  await expect(gm.getByTestId("fight-log")).toContainText(new RegExp(`${ilse.name}: Counter-Attack net -?\\d+: (Miss|Hit|Critical Hit)`));
  await expect(fighter(gm, ilse.name)).toContainText("7 AP");
  await expect(one.page.getByTestId("table-log")).toContainText(`${ilse.name} reacts too, to Brigand’s melee attack: Counter-Attack`);
  await closeFighter(gm);
  await one.context.close();
});

test("the table's code comes only when a phone needs it: a player's phone that cannot fetch it is told so, and pairs once it can", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(60_000);
  // A first visit cut off (no service worker): the fights' module, which holds the table's
  // code, is refused until the player's phone is online again.
  const context = await browser.newContext({ baseURL, ...phone, serviceWorkers: "block" });
  const player = await context.newPage();
  let refuse = true;
  await player.route(/\/split_fights\.wasm$/, (route) => (refuse ? route.abort() : route.continue()));
  const asked: string[] = [];
  player.on("request", (r) => asked.push(new URL(r.url()).pathname.replace(/^.*\//, "")));
  const errors: string[] = [];
  player.on("pageerror", (e) => errors.push(e.message));
  await player.goto("/");
  await appReady(player);
  await player.waitForLoadState("networkidle");
  expect(asked, "the roster does not fetch the table's code").not.toContain("split_fights.wasm");

  await gmFight(gm);
  await gm.getByRole("button", { name: "Open the table" }).tap();
  const invitation = await seat(gm, 0).getByTestId("table-code").inputValue();
  await player.goto(invitation);
  await expect(player.getByText("The live table was not downloaded before this phone went offline")).toBeVisible();
  await expect(player.getByRole("heading", { name: "Not on this phone yet" })).toBeVisible();
  // Online again: the page comes, takes the code that waited and answers it.
  refuse = false;
  await player.getByRole("button", { name: "Try again" }).tap();
  await expect(player.getByTestId("answer-code")).toBeVisible({ timeout: 15_000 });
  const paste = gm.getByTestId("answer-paste");
  await paste.fill(await player.getByTestId("answer-code").inputValue());
  await paste.blur();
  await expect(player.getByText("Connected to the GM’s phone.")).toBeVisible({ timeout: 15_000 });
  expect(errors).toEqual([]);
  await context.close();
});

test("Aura at the table: the player's run, initiative and attack are intents the GM's phone resolves; the player's phone shows what the rules refuse", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(90_000);
  const auraBase = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-aura-v1.json"), "utf8"));
  const maren = { ...auraBase, id: "ad00000000000001", name: "Maren", sheet: { ...auraBase.sheet, conditions: [] } };
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [maren]);
  await newFight(gm, "Ford", "aura", [maren], "Gnoll");
  await expect(turnStatus(gm)).toContainText("Round 1");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await gm.locator('li[data-npc="Gnoll"]').getByRole("button", { name: "Numbers shown" }).tap();
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");

  // A run, asked from her phone and taken by the GM's: its energy paid on both phones.
  const run = mine.getByRole("button", { name: /^Run · 3 energy/ });
  await run.tap();
  await expect(asks).toContainText("Player 1 asks for Maren: Maren: Run");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(mine.getByTestId("pools")).toContainText("energy 2/5");
  await expect(run).toBeDisabled();
  await expect(mine.getByText("Not now: needs 3 energy, 2 left.").first()).toBeVisible();

  // Initiative against the gnoll: both sides roll once a round (review item 3).
  await mine.getByRole("combobox", { name: "Initiative against" }).selectOption({ label: "Gnoll" });
  await mine.getByTestId("roll-init").tap();
  await expect(asks).toContainText(/Player 1 asks for Maren: Maren (wins|loses) initiative against Gnoll: \d+ vs \d+/);
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(mine.getByTestId("roll-init")).toBeDisabled();
  await expect(mine.getByTestId("init-odds")).toContainText("wins 0%");

  // Her attack: the gnoll's evasion roll is made by the rules on the GM's phone.
  await mine.getByRole("combobox", { name: "Target", exact: true }).selectOption({ label: "Gnoll" });
  const withWhat = mine.getByRole("combobox", { name: "With", exact: true });
  const fist = (await withWhat.locator("option").allTextContents()).indexOf("Unarmed");
  await withWhat.selectOption({ index: fist });
  await expect(mine.getByTestId("attack-odds")).toContainText(/AV \d+ vs 1d10\*\+\d+/);
  await mine.getByTestId("roll-attack").tap();
  await expect(asks).toContainText(/Player 1 asks for Maren: Maren → Gnoll: attack, combat roll \d+/);
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText(/Maren → Gnoll: attack, combat roll \d+/);
  await expect(mine.getByTestId("attack-result")).toContainText(/Maren → Gnoll: attack, combat roll \d+/);
  // Unarmed costs 2: nothing left for another.
  await expect(mine.getByTestId("pools")).toContainText("energy 0/5");
  await expect(mine.getByTestId("roll-attack")).toBeDisabled();
  await one.page.screenshot({ path: "test-results/screens/table-aura-player.png", fullPage: true });
  await one.context.close();
});

test("Aura refereed: the player takes her spear in hand by a request the GM's phone resolves; a trip's moving target, the new actions, shaken's odds, an NPC without stamina, a timed condition on the sheet and the bow's draw-weight range", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(120_000);
  const auraBase = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/character-aura-v1.json"), "utf8"));
  const spear = { ...auraBase.sheet.weapons[0], name: "Spear", damage: "1d10", av: 2, ev: 1, precise: 0, held: false };
  // The fixture's Maren is shaken.
  const maren = { ...auraBase, id: "ad00000000000002", name: "Maren", sheet: { ...auraBase.sheet, weapons: [...auraBase.sheet.weapons, spear] } };
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [maren]);
  await newFight(gm, "Weir", "aura", [maren], "Gnoll");
  await expect(turnStatus(gm)).toContainText("Round 1");
  // Review O3: a quick NPC without stamina joins unconscious.
  await gm.getByLabel("Name", { exact: true }).fill("Ghoul");
  await setNumber(gm, "Stamina", 0);
  await gm.getByRole("button", { name: "Add Ghoul" }).tap();
  await expect(fighter(gm, "Ghoul").locator(".chip")).toContainText(["Unconscious"]);
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await gm.locator('li[data-npc="Gnoll"]').getByRole("button", { name: "Numbers shown" }).tap();
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");

  // Review 13: shaken, taking a weapon in hand shows the drop roll's odds first. Review 9 and
  // 10: loading and a run stopped short are actions of their own.
  // Review T6-9 (issue 58): the scimitar in hand is stowed first, at its own price.
  await expect(mine.getByRole("button", { name: /^Take in hand: Spear · \d energy \(stows .+ first\) · shaken: a d20 of 5 or more keeps hold · 80\.0%$/ })).toBeVisible();
  await expect(mine.getByRole("button", { name: /^Load a ranged weapon \(1 energy\) · 1 energy/ })).toBeEnabled();
  await expect(mine.getByRole("button", { name: /^Run, stopped at a third of Speed · 1 energy/ })).toBeEnabled();

  // The GM ends her shaking; review O2: she asks to take the spear in hand, the GM's phone
  // resolves it, and her attacks are the spear's.
  await openFighter(gm, "Maren");
  await fightSheet(gm).getByRole("button", { name: "Remove Shaken" }).tap();
  await closeFighter(gm);
  const take = mine.getByRole("button", { name: /^Take in hand: Spear · \d energy/ });
  const price = Number((await take.textContent())!.match(/Spear · (\d) energy/)![1]);
  expect(price, "the spear's 2 and the scimitar's stowing").toBeGreaterThan(2);
  await take.tap();
  await expect(asks).toContainText("Player 1 asks for Maren: Maren: Stow one weapon and take another in hand");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Maren takes in hand Spear");
  // Her saved sheet holds the spear now, and the scimitar is put away.
  const held = () => gm.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet.weapons.filter((w: { held: boolean }) => w.held).map((w: { name: string }) => w.name), maren.id);
  await expect.poll(held).toEqual(["Spear"]);
  await expect(mine.getByRole("button", { name: "Stow Spear · 2 energy" })).toBeVisible();
  await expect(mine.getByTestId("pools")).toContainText(`energy ${5 - price}/5`);
  const withWhat = mine.getByRole("combobox", { name: "With", exact: true });
  await expect(withWhat.locator("option")).toContainText(["Spear 1d10", "Throw Spear 1d10", "Unarmed", "Longbow 1d10"]);

  // Review 11: a trip against a moving target: its fortitude roll has disadvantage, so the
  // trip works more often.
  await mine.getByRole("combobox", { name: "Target", exact: true }).selectOption({ label: "Gnoll" });
  await withWhat.selectOption({ label: "Spear 1d10" });
  await mine.getByRole("combobox", { name: "Maneuver" }).selectOption({ label: "Trip" });
  const odds = mine.getByTestId("attack-odds");
  await expect(odds).toContainText("Trip: AV");
  const works = async () => parseFloat((await odds.textContent())!.split("works ")[1]!);
  const still = await works();
  await mine.getByLabel("Trip: the target is on the move").check();
  await expect.poll(works).toBeGreaterThan(still);
  await one.page.screenshot({ path: "test-results/screens/table-aura-refereed-player.png", fullPage: true });

  // Review N4: a condition the GM gives to the end of the round reaches her saved sheet with
  // its time, and lapses when the fight ends.
  const stored = () => gm.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet.conditions, maren.id);
  await openFighter(gm, "Maren");
  await fightSheet(gm).locator("#cond-name").selectOption("Dazed");
  await fightSheet(gm).locator("#cond-dur").selectOption("round1");
  await fightSheet(gm).getByTestId("add-condition").tap();
  await closeFighter(gm);
  await expect.poll(stored).toEqual(["Dazed (to round end)"]);
  await gm.getByRole("button", { name: "End the fight" }).tap();
  await expect.poll(stored).toEqual([]);
  await expect(gm.getByTestId("fight-log")).toContainText("The fight is over");

  // Review 14: on her sheet, the longbow (10/60/150) reaches as far as her draw weight adds.
  await gm.getByRole("link", { name: "Characters" }).tap();
  await gm.getByRole("link", { name: /Maren/ }).first().tap();
  await mode(gm, "Edit");
  await expect(gm.getByTestId("list-entry").filter({ hasText: "Longbow" })).toContainText("range 10/60/150 (10/65/160 at this draw weight)");
  await gm.screenshot({ path: "test-results/screens/aura-sheet-draw-range.png", fullPage: true });
  await one.context.close();
});

test("Bo Vogt refereed: the player's technique spends its dice and deals typed damage by a request the GM's phone resolves; Frozen once, HP below 0 with the halved maximum, what broke, hands without a bag, damage on the sheet", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(120_000);
  // Ilse: STR rung 6, DEX rung 3, Frozen; 3 technique dice of d6, 1 spent; exhaustion 1; no bag,
  // an arm lost, and a "weapon or armor breaks" not yet named.
  const ilse = {
    ...vogtBase,
    id: "cc00000000000004",
    name: "Ilse",
    sheet: { ...vogtBase.sheet, statuses: ["Frozen"], bag: false, injuries: ["Lost an arm", "Weapon or armor breaks"] },
  };
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [ilse]);
  await newFight(gm, "Ferry", "vogt", [ilse], "Goblin");
  await expect(turnStatus(gm)).toContainText("Round 1 · declare actions");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  await gm.locator('li[data-npc="Goblin"]').getByRole("button", { name: "Numbers shown" }).tap();
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  const stored = () => gm.evaluate((id) => JSON.parse(localStorage.getItem(`rollsheet.char.${id}`)!).sheet, ilse.id);

  // Review N1: Frozen takes one die off STR and DEX, once (6 → 5, 3 → 2).
  await expect(mine.getByTestId("vogt-status")).toContainText("DEX rung 2 · STR rung 5");
  // Review 2: a technique is declared from the dice left (2 of 3), and shows them.
  await expect(mine.getByRole("button", { name: "Declare: Technique · 2d6" })).toBeEnabled();
  await expect(mine.getByRole("button", { name: "Declare: Technique · 3d6" })).toHaveCount(0);
  await expect(mine.getByTestId("vogt-status")).toContainText("technique dice left 2");
  // Review O1: the break is named from her phone; the armour: AR 0.
  await mine.getByRole("button", { name: "It broke: the armor (AR 0)" }).tap();
  await expect(asks).toContainText("what broke is the armor");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(mine.getByTestId("vogt-status")).toContainText(/^AR 0 · exhaustion 1/);
  await expect.poll(async () => (await stored()).injuries).toEqual(["Lost an arm", "Broken: armor"]);

  // She declares the technique; on her turn its damage is fire, one roll.
  await mine.getByRole("button", { name: "Declare: Technique · 2d6" }).tap();
  await asks.getByRole("button", { name: "Accept" }).tap();
  await gm.getByTestId("roll-initiative").tap();
  for (let i = 0; i < 4 && !(await turnStatus(gm).textContent())!.includes("Ilse’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(one.page.getByTestId("table-turn")).toContainText("Ilse’s turn");
  // Review 9: with a technique declared, the damage form rolls its dice, of the type picked.
  await mine.getByRole("combobox", { name: "With", exact: true }).selectOption({ label: "Technique · 2d6 fire" });
  await mine.getByRole("button", { name: "Goblin", exact: true }).tap();
  await expect(mine.getByTestId("attack-odds")).toContainText("Goblin: 2d6");
  await mine.getByRole("button", { name: "Roll damage and apply" }).tap();
  await expect(asks).toContainText("Player 1 asks for Ilse");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Ilse uses the technique (2d6): 2 technique dice spent, 0 left");
  await expect(gm.getByTestId("fight-log")).toContainText(/Ilse deals 2d6\S* fire/);
  // Review 2 (c): spent on her saved sheet too.
  await expect.poll(async () => (await stored()).technique_spent).toBe(3);
  await one.page.screenshot({ path: "test-results/screens/table-vogt-refereed-player.png", fullPage: true });

  // Review 5 and N2: 15 damage from 9 HP is −6, the level of exhaustion it adds (2) halves the
  // maximum 14 to 7, on the fight's row and on the sheet.
  await damage(gm, "Ilse", 15);
  await expect(fighter(gm, "Ilse")).toContainText("HP -6/7");
  await expect.poll(async () => { const s = await stored(); return [s.hp, s.exhaustion]; }).toEqual([-6, 2]);
  await gm.screenshot({ path: "test-results/screens/table-vogt-refereed-gm.png", fullPage: true });

  // On her sheet: review 6 and 7, one hand left holds one item; review 8, damage taken there
  // adds a level of exhaustion.
  await gm.getByRole("link", { name: "Characters" }).tap();
  await gm.getByRole("link", { name: /Ilse/ }).first().tap();
  await expect(gm.getByTestId("encumbered")).toContainText("No bag: only 1 held (one per hand); 31 more need a bag.");
  await setNumber(gm, "Damage taken", 2);
  await gm.getByTestId("take-damage").tap();
  await expect.poll(async () => { const s = await stored(); return [s.hp, s.exhaustion]; }).toEqual([-8, 3]);
  await gm.screenshot({ path: "test-results/screens/vogt-sheet-refereed.png", fullPage: true });
  await one.context.close();
});

test("Symbaroum refereed: the quick NPC's Discreet, pain threshold and ranged weapon; a surprise whose advantage is the surpriser's free attack only; withdrawing, a sheathed sword and first aid by requests the GM's phone resolves", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(150_000);
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [VARLA]);
  await seedCharacters(gm, [VARLA]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Ravine");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Varla" }).tap();
  // #3: the form asks for what the fight reads, the seed's defaults first (pain threshold 5 for
  // Strong 10, Discreet 10).
  await gm.getByLabel("Name", { exact: true }).fill("Archer");
  await expect(gm.getByRole("spinbutton", { name: "Pain threshold" })).toHaveValue("5");
  await expect(gm.getByRole("spinbutton", { name: "Discreet" })).toHaveValue("10");
  await setNumber(gm, "Discreet", 13);
  await setNumber(gm, "Pain threshold", 4);
  await gm.locator("#npc-quality").selectOption("Ranged");
  await gm.getByRole("button", { name: "Add Archer" }).tap();
  await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Varla’s turn");
  await gm.locator(`li[data-npc="Archer"]`).getByRole("button", { name: "Numbers shown" }).tap();
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);
  // The Archer's Discreet 13 against Varla's Vigilant 15: d20 ≤ 8, 40% (with the old fixed
  // Discreet 10 it was ≤ 5).
  await gm.getByRole("button", { name: "Enemies surprise" }).tap();
  await expect(gm.getByTestId("surprise-chance")).toHaveText("d20 ≤ 8 (lowest Discreet ← highest Vigilant): 40.0%");
  const log = gm.getByTestId("fight-log");
  let surprised = false;
  for (let i = 0; i < 40 && !surprised; i++) {
    await gm.getByRole("button", { name: "Roll surprise" }).tap();
    await expect(log).toContainText("Surprise: d20");
    surprised = (await log.textContent())!.includes("each surpriser gets a free attack");
    if (!surprised) await gm.getByRole("button", { name: "Undo" }).tap();
  }
  expect(surprised, "a surprise within 40 rolls").toBe(true);
  await expect(fighter(gm, "Varla").locator(".chip")).toContainText(["Surprised"]);
  // #6: the Archer's free attack at the start has the advantage; once made, no more.
  await openFighter(gm, "Archer");
  const adv = fightSheet(gm).getByTestId("attack-roll");
  await expect(adv).toContainText("with the advantage");
  await fightSheet(gm).getByRole("button", { name: "Roll a free attack" }).tap();
  await expect(fightSheet(gm).getByTestId("attack-result")).toContainText("Archer attacks Varla");
  await expect(adv).not.toContainText("advantage");
  await closeFighter(gm);
  // #11: Varla down: a ranged attack gets no advantage from it.
  await openFighter(gm, "Varla");
  await fightSheet(gm).locator("#cond-name").selectOption("Prone");
  await fightSheet(gm).getByTestId("add-condition").tap();
  await closeFighter(gm);
  await openFighter(gm, "Archer");
  await expect(fightSheet(gm).getByText("Varla defends: d20")).toBeVisible();
  await expect(adv).not.toContainText("advantage");
  await closeFighter(gm);
  await expect(gm.getByTestId("fight-log")).toContainText("Varla: Prone");

  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  // #12: withdrawing, from her phone: a movement action, and the Archer's free attacks.
  await mine.getByRole("button", { name: "Withdraw from melee" }).tap();
  await expect(asks).toContainText("Player 1 asks for Varla:");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(log).toContainText("Varla withdraws from melee: each enemy engaged with it may take a free attack on it");
  // #9: surprised, her sword is sheathed; drawing it takes the movement action she spent.
  await mine.locator("#attack-target").selectOption({ label: "Archer" });
  await mine.getByRole("button", { name: "Roll attack" }).tap();
  await expect(one.page.getByText("Not now: Sword is not in hand: taking it takes a movement action; none is left.")).toBeVisible();
  // #13: Medicus on herself: her combat action; 1d4 back.
  await mine.locator("#attack-target").selectOption({ label: "Varla" });
  await mine.locator("#aid-kind").selectOption({ label: "Medicus" });
  await mine.getByRole("button", { name: "Give aid" }).tap();
  await expect(asks).toContainText("Varla gives Varla Medicus: d4");
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(log).toContainText("Varla gives Varla Medicus: d4");
  // Her combat action went on it (her movement on the withdrawal), and the d4 healed her
  // (unless she was unhurt).
  await expect(mine.getByRole("button", { name: "Give aid" })).toBeDisabled();
  await expect(mine).toContainText("Not now: Varla has no movement or combat action left.");
  const d4 = Number((await log.textContent())!.match(/Varla gives Varla Medicus: d4 (\d)/)![1]);
  expect(d4).toBeGreaterThanOrEqual(1);
  if (!(await fighter(gm, "Varla").textContent())!.includes("13/13")) await expect(log).toContainText(/Varla heals \d+: Toughness/);
  await expect(one.page.getByTestId("table-log")).toContainText("Varla gives Varla Medicus");
  await one.page.screenshot({ path: "test-results/screens/table-symbaroum-refereed-player.png", fullPage: true });
  await gm.screenshot({ path: "test-results/screens/table-symbaroum-refereed-gm.png", fullPage: true });
  await one.context.close();
});

test("Heimr refereed: each roll's spread before it, a two-handed NPC without a shield, the block with the shield's own ability and the tower shield's stamina, the brawl's provoked attack asked from the player's phone, a weapon drawn along with a move, the chase", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(150_000);
  // Hardy enough that the Ogre's provoked blow cannot put her down before her next turn.
  const asa = { ...ASA, sheet: { ...ASA.sheet, hp: 40, hp_max: 40 } };
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [asa]);
  await seedCharacters(gm, [asa]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Bridge");
  await gm.getByLabel("Rule system").selectOption("heimr");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Asa" }).tap();
  // #5: a great weapon takes both hands: the shield picked beside it is not carried.
  await gm.getByLabel("Name", { exact: true }).fill("Ogre");
  await gm.getByRole("combobox", { name: "Weapon", exact: true }).selectOption({ index: 3 });
  await gm.getByRole("combobox", { name: "Off hand", exact: true }).selectOption({ index: 2 });
  await gm.getByRole("button", { name: "Add Ogre" }).tap();
  // #4, #18: Asa takes up a medium weapon (with her Brawl ability's numbers, the sheet's, read
  // from the fight) and a tower shield, blocking with her Shield ability (C 3, P 2, +5): her
  // base fatigue rises by one. Before the start, as drawing takes a turn's action after it
  // (review T6-2, issue 55).
  await openFighter(gm, "Asa");
  const sheet = fightSheet(gm);
  await sheet.getByRole("combobox", { name: "Weapon", exact: true }).selectOption({ index: 2 });
  await sheet.getByRole("combobox", { name: "Off hand", exact: true }).selectOption({ index: 4 });
  await sheet.getByRole("combobox", { name: "Weapon with (attack, parry)", exact: true }).selectOption({ index: 1 });
  await sheet.getByRole("combobox", { name: "Off hand with (block, second weapon)", exact: true }).selectOption({ label: "Shield (C 3, P 2)" });
  await sheet.getByTestId("take-up").tap();
  await expect(gm.getByTestId("fight-log")).toContainText(/Asa takes up medium weapon \(C \d+, P \d+\) and tower shield \(C 3, P 2\)/);
  await expect(sheet.getByRole("button", { name: /^Roll block · C 3 · P 7 \(\+5 shield\)/ })).toBeVisible();
  await expect(sheet.getByTestId("heimr-status")).toContainText("Fatigue 4 (base 4)");
  await closeFighter(gm);
  // #37: the initiative's spread before the roll (Asa: dexterity 1, willpower 3).
  await expect(gm.getByTestId("initiative-spread")).toContainText(/Asa: \d+\+ [\d.]+% · \d+\+ [\d.]+% · \d+\+ [\d.]+%/);
  await gm.getByTestId("roll-initiative").tap();
  await gm.getByTestId("next").tap();
  for (let i = 0; i < 3 && !(await turnStatus(gm).textContent())!.includes("Asa’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Asa’s turn");
  await gm.locator(`li[data-npc="Ogre"]`).getByRole("button", { name: "Numbers shown" }).tap();
  await openFighter(gm, "Ogre");
  await expect(fightSheet(gm)).toContainText("Block: no shield to block with");
  // #37: each defence's spread, and its chance of failing on fatigue.
  await expect(fightSheet(gm).getByTestId("defence-spread")).toContainText(/Dodge: \d+\+ [\d.]+% .* · fails on fatigue [\d.]+%/);
  await closeFighter(gm);
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);

  // #14: Asa's player brawls the Ogre, who holds a melee weapon: its attack comes first, with
  // its odds on her phone; the GM's phone resolves the request.
  const mine = one.page.getByTestId("my-actions");
  const asks = gm.getByTestId("asks");
  await mine.getByRole("combobox", { name: "Attack", exact: true }).selectOption({ label: "Brawl: hit 1" });
  await expect(mine.getByTestId("attack-setup")).toContainText("Ogre holds a melee weapon: its attack comes first");
  await expect(mine.getByTestId("attack-chance")).toContainText(/^Its attack hits [\d.]+% first · gets past it [\d.]+%/);
  await mine.getByTestId("roll-attack").tap();
  await expect(asks).toContainText("Player 1 asks for Asa:");
  await asks.getByRole("button", { name: "Accept" }).tap();
  const log = gm.getByTestId("fight-log");
  await expect(log).toContainText("Asa brawls at Ogre, who holds a melee weapon: its attack comes first");
  await expect(log).toContainText(/Asa gets past the weapon|Asa’s brawl attack fails/);
  await expect(one.page.getByTestId("table-log")).toContainText("its attack comes first");
  await one.page.screenshot({ path: "test-results/screens/table-heimr-refereed-player.png", fullPage: true });

  // #7 on Asa's next turn (the brawl took this one's standard action): a weapon drawn along
  // with the move, one standard action.
  for (let i = 0; i < 3; i++) {
    await gm.getByTestId("next").tap();
    if ((await turnStatus(gm).textContent())!.includes("Asa’s turn")) break;
  }
  await expect(turnStatus(gm)).toContainText("Asa’s turn");
  await openFighter(gm, "Asa");
  for (const a of ["Move · standard", "Draw a weapon · standard"]) {
    await sheet.getByRole("combobox", { name: "Action", exact: true }).selectOption({ label: a });
    await sheet.getByTestId("take-action").tap();
  }
  await expect(log).toContainText("Draw a weapon along with the move");
  // #13: the chase: whom and how far, then the next exchange's exact odds.
  await sheet.getByRole("combobox", { name: "Chase whom", exact: true }).selectOption({ label: "Ogre" });
  await sheet.getByTestId("chase-start").tap();
  await expect(sheet.getByTestId("chase-odds")).toContainText(/Ogre is 3 ahead\. Next: .*%/);
  await gm.screenshot({ path: "test-results/screens/table-heimr-refereed-gm.png", fullPage: true });
  await closeFighter(gm);
  await one.context.close();
});

test("issue 54: a player shoots an NPC whose numbers the GM keeps, proposing its distance; the GM sets the distance before Accept; a GM's tool is refused on the player's phone", async ({ page: gm, browser, baseURL }) => {
  test.setTimeout(150_000);
  const asa = { ...ASA, sheet: { ...ASA.sheet, hp: 40, hp_max: 40 } };
  const one = await otherPhone(browser, baseURL);
  await seedCharacters(one.page, [asa]);
  await seedCharacters(gm, [asa]);
  await gm.getByRole("link", { name: "Combat" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Road");
  await gm.getByLabel("Rule system").selectOption("heimr");
  await gm.getByRole("button", { name: "Create encounter" }).tap();
  await gm.getByRole("button", { name: "Add Asa" }).tap();
  await gm.getByLabel("Name", { exact: true }).fill("Bandit");
  await gm.getByRole("button", { name: "Add Bandit" }).tap();
  // Before the start, taking up gear is free: Asa takes a bow.
  await openFighter(gm, "Asa");
  await fightSheet(gm).getByRole("combobox", { name: "Weapon", exact: true }).selectOption({ index: 5 });
  await fightSheet(gm).getByTestId("take-up").tap();
  await expect(gm.getByTestId("fight-log")).toContainText("Asa takes up bow");
  await closeFighter(gm);
  await gm.getByTestId("roll-initiative").tap();
  await gm.getByTestId("next").tap();
  for (let i = 0; i < 3 && !(await turnStatus(gm).textContent())!.includes("Asa’s turn"); i++) await gm.getByTestId("next").tap();
  await expect(turnStatus(gm)).toContainText("Asa’s turn");
  await gm.getByRole("button", { name: "Open the table" }).tap();
  await pair(gm, one.page, 0, false);

  // On her phone the bandit (numbers kept: the default) is a target; its odds are the GM's.
  const mine = one.page.getByTestId("my-actions");
  await expect(mine.getByRole("combobox", { name: "Target (its shown defence)", exact: true })).toContainText("Bandit");
  await expect(mine.getByTestId("attack-chance")).toContainText("Odds known to the GM");
  const dist = mine.getByRole("spinbutton", { name: "Distance (turns of movement)", exact: true });
  await dist.fill("4");
  await dist.press("Enter");
  await dist.blur();
  await mine.getByTestId("roll-attack").tap();
  // The GM's phone shows what she proposes beside its default, and sets it.
  const asks = gm.getByTestId("asks");
  await expect(asks).toContainText("Player 1 asks for Asa:");
  const fact = asks.getByTestId("ask-fact").filter({ hasText: "Distance (turns of movement): proposed 4 · by default 0" });
  await expect(fact).toHaveCount(1);
  const set = fact.getByRole("spinbutton", { name: "Distance (turns of movement)", exact: true });
  await set.fill("1");
  await set.press("Enter");
  await set.blur();
  await expect(set).toHaveValue("1");
  await expect(asks).toContainText("Accept rolls it with the facts as you set them.");
  await gm.screenshot({ path: "test-results/screens/table-issue54-gm-facts.png", fullPage: false });
  await asks.getByRole("button", { name: "Accept" }).tap();
  await expect(asks).toHaveCount(0);
  await expect(gm.getByTestId("fight-log")).toContainText("Asa attacks Bandit");
  await expect(one.page.getByTestId("table-log")).toContainText("Asa attacks Bandit");
  // A GM's tool asked from her phone: refused there, nothing sent.
  const fall = mine.getByTestId("roll-fall");
  if (await fall.count()) {
    await fall.tap();
    await expect(one.page.getByText("Not now: the GM’s to decide").first()).toBeVisible();
    await expect(asks).toHaveCount(0);
  }
  await one.page.screenshot({ path: "test-results/screens/table-issue54-player.png", fullPage: false });
  await one.context.close();
});

test("issue 54: a death test on the sheet of a character dying in a running fight is the fight's: refused on the sheet, taken in the fight", async ({ page: gm }) => {
  await newFight(gm, "Crypt", "symbaroum", [VARLA], "Goblin", 12);
  await expect(turnStatus(gm)).toContainText("Round 1");
  await damage(gm, "Varla", 13);
  await gm.getByRole("link", { name: "Characters" }).tap();
  await gm.locator("li.roster-entry").filter({ hasText: "Varla" }).locator("a.roster-name").tap();
  await mode(gm, "Play");
  await expect(gm.getByText("Dying", { exact: true })).toBeVisible();
  await gm.getByRole("button", { name: "Roll death test" }).tap();
  await expect(gm.getByText(/In a running fight \(Crypt\), the death test is taken there/)).toBeVisible();
  await expect(gm.getByText(/of 3 steps toward death/)).toContainText("0 of 3");
});
