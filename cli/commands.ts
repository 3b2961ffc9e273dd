// Every CLI command, in the order `svc help` lists them.
import type { Command } from "./command";
import { databaseCommands, planCommands } from "./admin-commands";
import { keyCommands } from "./key-commands";
import { webhookCommands } from "./webhook-commands";
import { configCommands } from "./config/commands";
import { loginCommands } from "./login";
import { listenCommand } from "./listen";

export const commands: Command[] = [
  ...databaseCommands,
  ...keyCommands,
  ...planCommands,
  ...webhookCommands,
  ...configCommands,
  ...loginCommands,
  listenCommand,
];
