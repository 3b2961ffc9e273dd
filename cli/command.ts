import type { ParseArgsConfig } from "node:util";
import type { Db } from "@/lib/ports/db/types";

export interface CommandIo {
  db(): Promise<Db>;
  out(line: string): void;
}

export interface Command {
  group: string;
  name: string;
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** The flag a lone positional argument fills (`config validate svc.yaml` = `--file svc.yaml`); none: positionals are refused. */
  positional?: string;
  run(flags: Record<string, string | boolean | undefined>, io: CommandIo): Promise<void>;
}
