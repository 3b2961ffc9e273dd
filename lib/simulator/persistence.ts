import fs from "node:fs";
import path from "node:path";
import { parseSnapshot, restoreSnapshot, takeSnapshot, type MediaMeta } from "@/lib/simulator/snapshot";
import type { SimulatorState } from "@/lib/simulator/state";

/**
 * Keeps the simulator's provider-side memory (snapshot.ts) in a folder of its own, outside the app's
 * database (it is the provider's memory, not ours), so stopping `npm run dev` and starting `npm start`
 * on the same data finds the same windows, inboxes, flows and templates:
 *   <dir>/state.json     the snapshot, replaced atomically (written to a temporary file, then renamed)
 *   <dir>/media/<id>     each uploaded media item's bytes, written once, removed when it is let go
 * Loaded when the simulator is made; saved SAVE_DELAY_MS after a change (changes meanwhile go in the
 * same save), and at once by flush() (the app's and `npm run simulator`'s shutdown call it). A save
 * that took long spaces the next ones out, so a busy simulator with a full memory spends at most about
 * 1/SAVE_COST_FACTOR of its time saving. A missing or unreadable file starts empty, with one line saying so.
 */
const SAVE_DELAY_MS = 500;
const SAVE_COST_FACTOR = 20;
const STATE_FILE = "state.json";
// Media ids are digits; a file edited by hand cannot name a path outside the folder.
const SAFE_ID = /^[0-9A-Za-z_-]{1,64}$/;

export interface Persistence {
  readonly file: string;
  /** Writes now whatever is not saved yet. Synchronous, so a process "exit" handler can call it. */
  flush(): void;
  /** Flushes, then stops saving. */
  close(): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class SnapshotFolder implements Persistence {
  readonly file: string;
  private readonly mediaDir: string;
  /** Media ids whose bytes are in mediaDir. */
  private readonly onDisk = new Set<string>();
  private dirty = false;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** No save before this (ms): a slow save spaces the next ones out. */
  private earliest = 0;

  constructor(
    private readonly state: SimulatorState,
    dir: string,
    private readonly now: () => Date,
    private readonly log: (message: string) => void,
  ) {
    this.file = path.join(dir, STATE_FILE);
    this.mediaDir = path.join(dir, "media");
  }

  private bytesOf(meta: MediaMeta): Buffer | null {
    if (!SAFE_ID.test(meta.id)) return null;
    try {
      return fs.readFileSync(path.join(this.mediaDir, meta.id));
    } catch {
      return null;
    }
  }

  load(): void {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      this.log(missing ? `no saved state in ${this.file} yet: starting empty` : `could not read ${this.file} (${messageOf(error)}): starting empty`);
      return;
    }
    try {
      restoreSnapshot(this.state, parseSnapshot(JSON.parse(text)), this.now(), (meta) => this.bytesOf(meta));
    } catch (error) {
      this.state.reset();
      const aside = `${this.file}.corrupt`;
      try {
        fs.renameSync(this.file, aside);
      } catch {
        /* the next save replaces it */
      }
      this.log(`${this.file} is not a readable simulator snapshot (${messageOf(error)}): starting empty; the file was moved to ${aside}`);
      return;
    }
    for (const item of this.state.allMedia()) this.onDisk.add(item.id);
    // Bytes of media no longer in the snapshot (a stop between the two writes): not needed.
    const names = fs.existsSync(this.mediaDir) ? fs.readdirSync(this.mediaDir) : [];
    for (const name of names) if (!this.onDisk.has(name)) fs.rmSync(path.join(this.mediaDir, name), { force: true });
  }

  private save(): void {
    const snapshot = takeSnapshot(this.state, this.now());
    fs.mkdirSync(this.mediaDir, { recursive: true });
    const kept = new Set<string>();
    for (const meta of snapshot.media) {
      kept.add(meta.id);
      const item = this.onDisk.has(meta.id) || !SAFE_ID.test(meta.id) ? undefined : this.state.getMedia(meta.id);
      if (!item) continue;
      fs.writeFileSync(path.join(this.mediaDir, meta.id), item.bytes);
      this.onDisk.add(meta.id);
    }
    const temporary = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(snapshot));
    fs.renameSync(temporary, this.file);
    for (const id of this.onDisk) {
      if (kept.has(id)) continue;
      fs.rmSync(path.join(this.mediaDir, id), { force: true });
      this.onDisk.delete(id);
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    try {
      this.save();
    } catch (error) {
      this.log(`could not save its state to ${this.file}: ${messageOf(error)}`);
    }
    this.earliest = Date.now() + Math.max(SAVE_DELAY_MS, (performance.now() - started) * SAVE_COST_FACTOR);
  }

  schedule(): void {
    this.dirty = true;
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => this.flush(), Math.max(SAVE_DELAY_MS, this.earliest - Date.now()));
    this.timer.unref();
  }

  close(): void {
    this.flush();
    this.closed = true;
    this.state.onChange = null;
  }
}

/** Loads the folder's snapshot into `state` (empty), then saves `state` there after each change. */
export function persistState(state: SimulatorState, dir: string, now: () => Date, log: (message: string) => void): Persistence {
  const folder = new SnapshotFolder(state, dir, now, log);
  folder.load();
  state.onChange = () => folder.schedule();
  return folder;
}
