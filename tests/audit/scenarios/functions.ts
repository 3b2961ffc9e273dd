import { ok, scenario, type Stage } from "./support";

/** What runs: deploys, rollbacks and the secrets code reads. */

let functions = 0;

async function createFunction(stage: Stage): Promise<string> {
  const slug = `order-bot-${++functions}`;
  return ok(await stage.api("POST", "/functions", { slug, name: slug, trigger_type: "KEYWORD" }), "create function").body.id as string;
}

const deploy = (stage: Stage, id: string, n: number) =>
  stage.api("POST", `/functions/${id}/deploy`, { source: `export default async function () { return ${n}; }\n` });

export const functionScenarios = [
  scenario({
    operationId: "deployFunction",
    proves: ["function.deployed"],
    actor: "api_key",
    setup: createFunction,
    act: (stage, id) => deploy(stage, id, 1),
  }),
  scenario({
    operationId: "rollbackFunction",
    proves: ["function.rolled_back"],
    actor: "user",
    setup: async (stage) => {
      const id = await createFunction(stage);
      const first = ok(await deploy(stage, id, 1), "deploy").body.version_id as string;
      ok(await deploy(stage, id, 2), "deploy");
      return { id, first };
    },
    act: (stage, { id, first }) => stage.dash("POST", `/functions/${id}/rollback`, { version_id: first }),
  }),
  scenario({
    operationId: "putFunctionSecrets",
    proves: ["function.secret_set", "function.secret_deleted"],
    actor: "user",
    setup: async (stage) => {
      const id = await createFunction(stage);
      ok(await stage.api("PUT", `/functions/${id}/secrets`, { OLD_TOKEN: "old-function-secret-7777" }), "secrets");
      return id;
    },
    act: (stage, id) => stage.dash("PUT", `/functions/${id}/secrets`, { STRIPE_KEY: "sk_live_function_secret_8888", OLD_TOKEN: null }),
    secrets: () => ["old-function-secret-7777", "sk_live_function_secret_8888"],
  }),
];
