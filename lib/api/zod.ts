import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Once, before any schema is built: lets every schema carry OpenAPI metadata (.openapi(...)).
extendZodWithOpenApi(z);

// A missing field reads "Required." rather than zod's "Invalid input: expected string, received
// undefined": the issues map already names the field.
z.config({ customError: (issue) => (issue.code === "invalid_type" && issue.input === undefined ? "Required." : undefined) });

export { z };
