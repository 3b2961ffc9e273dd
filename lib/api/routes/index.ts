import { registerRoutes } from "@/lib/api/registry";
import { metaRoutes } from "./meta";
import { projectRoutes } from "./projects";

registerRoutes(...metaRoutes, ...projectRoutes);
