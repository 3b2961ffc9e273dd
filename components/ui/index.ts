// One import for every primitive: `import { Button, Card, Field, Input } from "@/components/ui"`.
// See README.md in this folder for what each one is for.
export { cn } from "./cn";
export * from "./icons";
export { Badge, type BadgeTone } from "./badge";
export { Button, ButtonLink, buttonClasses, buttonVariantClasses, type ButtonProps, type ButtonSize, type ButtonVariant } from "./button";
export { Card, CardBody, CardFooter, CardHeader } from "./card";
export { Checkbox } from "./checkbox";
export { ConfirmDialog, type ConfirmDialogProps } from "./confirm-dialog";
export { CopyButton, copyText } from "./copy-button";
export { Dialog, Sheet, type DialogProps } from "./dialog";
export { FormDialogActions } from "./form-dialog-actions";
export { FormError } from "./form-error";
export { EmptyState } from "./empty-state";
export { ErrorState } from "./error-state";
export { Field, Label, useFieldControl } from "./field";
export { Input, Select, Textarea, controlClasses } from "./input";
export { PageHeader } from "./page-header";
export { QueryState, type QueryStateProps } from "./query-state";
export { RowButton, RowLink } from "./row-link";
export { PlatformName } from "./platform-name";
export { CodeBlock, Secret, WithheldSecret } from "./secret";
export { Skeleton, SkeletonGroup, SkeletonRows, SkeletonText } from "./skeleton";
export { Spinner } from "./spinner";
export { Switch } from "./switch";
export { TBody, TD, TH, THead, TR, Table, TableContainer } from "./table";
export { NavTabs, Tab, TabList, TabPanel, Tabs, type NavTab } from "./tabs";
export { Time, formatDateTime, formatRelativeTime } from "./time";
export { ToastProvider, useToast, type ToastOptions, type ToastTone } from "./toast";
