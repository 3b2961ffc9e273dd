import type { Capability } from "../types";
import type { Report } from "../findings";
import type { ReadinessScope } from "../scope";
import { plural } from "../text";

/**
 * sandbox_messaging. blocked: the sandbox channel is not connected. testable: at least one tester
 * joined (sends on the sandbox reach only joined testers). Nobody joined: warning with the join
 * instruction while the sandbox is the effective channel; once the project's own number is
 * connected the sandbox is optional, so not_applicable (and the issue is info).
 */
export function checkSandboxMessaging(scope: ReadinessScope, report: Report): Capability {
  const { project, sandbox, sandboxLabel, facts } = scope;
  report.require("sandbox_channel", "sandbox_tester_joined");
  const joinStep = `Send \`join ${project.joinCode}\` to ${sandbox.row.phoneNumber ?? "the sandbox number"} from the phone you test with.`;
  if (sandbox.row.status !== "connected") {
    report.issue({
      code: "SANDBOX_UNAVAILABLE",
      severity: "blocked",
      area: "sandbox",
      title: "The shared sandbox is unavailable",
      message: `The shared sandbox channel is ${sandbox.row.status}: nothing can be sent or received on it right now.`,
      next_steps: [`Try again later; GET /channels/${sandbox.row.id} shows status connected when it is back.`],
      blocksSandbox: true,
    });
    return { status: "blocked", message: `The shared sandbox is ${sandbox.row.status}.` };
  }
  if (facts.participantCount > 0) {
    if (facts.participantCount >= facts.participantCap) {
      report.issue({
        code: "SANDBOX_TESTER_LIMIT_REACHED",
        severity: "info",
        area: "sandbox",
        title: "Every sandbox seat is taken",
        message: `${plural(facts.participantCount, "tester")} joined, the most the sandbox allows per project (${facts.participantCap}). Someone else who sends \`join ${project.joinCode}\` is refused.`,
        next_steps: ["To free a seat, a tester joins another project's code.", "To message anyone who opted in, connect your own number (POST /channels)."],
      });
    }
    return {
      status: "testable",
      message: `${plural(facts.participantCount, "tester")} joined on ${sandboxLabel}; send to them with POST /messages and they can reply.`,
    };
  }
  const optional = scope.connectedDedicated !== null;
  report.issue({
    code: "NO_SANDBOX_TESTERS",
    severity: optional ? "info" : "warning",
    area: "sandbox",
    title: "Nobody has joined the sandbox",
    message: `Sends on ${sandboxLabel} go only to testers who joined this project, and nobody has yet (up to ${facts.participantCap} can).`,
    next_steps: [joinStep],
  });
  return optional
    ? { status: "not_applicable", message: `Your own number is connected, so the sandbox is optional. To test there: ${joinStep}` }
    : { status: "warning", message: `Nobody has joined yet. ${joinStep}` };
}
