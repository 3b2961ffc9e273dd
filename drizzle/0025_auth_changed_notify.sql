-- Every web process keeps authenticated API keys (the key, its project, organization and plan) for a
-- moment (lib/domain/keys/auth-cache.ts). A change to any of those rows tells every listening process
-- to forget them, at commit: NOTIFY is delivered only when the writing transaction commits.
CREATE FUNCTION svc_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('svc_auth_changed', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A key's last_used_at moves once a minute per key and process (touchKey): not a change that matters.
CREATE TRIGGER api_keys_auth_changed_update AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION svc_auth_changed();--> statement-breakpoint
CREATE TRIGGER api_keys_auth_changed_delete AFTER DELETE OR TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION svc_auth_changed();--> statement-breakpoint
-- The webhook's failing-since moves with delivery failures (webhook-health.ts): nothing a key's request reads.
CREATE TRIGGER projects_auth_changed_update AFTER UPDATE ON projects FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'webhook_failing_since') IS DISTINCT FROM (to_jsonb(NEW) - 'webhook_failing_since'))
  EXECUTE FUNCTION svc_auth_changed();--> statement-breakpoint
CREATE TRIGGER projects_auth_changed_delete AFTER DELETE OR TRUNCATE ON projects FOR EACH STATEMENT EXECUTE FUNCTION svc_auth_changed();--> statement-breakpoint
CREATE TRIGGER organizations_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON organizations FOR EACH STATEMENT EXECUTE FUNCTION svc_auth_changed();--> statement-breakpoint
CREATE TRIGGER plans_auth_changed AFTER UPDATE OR DELETE OR TRUNCATE ON plans FOR EACH STATEMENT EXECUTE FUNCTION svc_auth_changed();
