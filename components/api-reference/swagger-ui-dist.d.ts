/** The part of Swagger UI's prebuilt bundle (swagger-ui-dist, no types of its own) that api-reference.tsx uses. */
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  interface SwaggerUIOptions {
    domNode: HTMLElement;
    url: string;
    deepLinking?: boolean;
    docExpansion?: "list" | "full" | "none";
    displayOperationId?: boolean;
    displayRequestDuration?: boolean;
    defaultModelsExpandDepth?: number;
    queryConfigEnabled?: boolean;
    validatorUrl?: string | null;
    tryItOutEnabled?: boolean;
    persistAuthorization?: boolean;
  }
  const SwaggerUI: (options: SwaggerUIOptions) => unknown;
  export default SwaggerUI;
}
