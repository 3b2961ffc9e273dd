import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Once, before any schema is built: lets every schema carry OpenAPI metadata (.openapi(...)).
extendZodWithOpenApi(z);

export { z };
