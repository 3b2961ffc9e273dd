import { registerRoutes } from "@/lib/api/registry";
import { metaRoutes } from "./meta";
import { projectRoutes } from "./projects";
import { channelRoutes } from "./channels";
import { contactRoutes } from "./contacts";
import { conversationRoutes } from "./conversations";
import { messageRoutes } from "./messages";
import { webhookRoutes } from "./webhooks";
import { readinessRoutes } from "./readiness";

registerRoutes(...metaRoutes, ...projectRoutes, ...channelRoutes, ...contactRoutes, ...conversationRoutes, ...messageRoutes, ...webhookRoutes, ...readinessRoutes);
