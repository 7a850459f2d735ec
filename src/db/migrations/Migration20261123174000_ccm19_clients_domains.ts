import { Migration } from '@mikro-orm/migrations';

/**
 * Clients and domains as CCM19 documents them: a client's password hash, quotas, feature
 * switches and `autoCreateDomains`; a domain's banner settings. Existing rows get the documented
 * defaults; an existing client has no password hash (null) until one is set.
 */
export class Migration20261123174000_ccm19_clients_domains extends Migration {
  override name = 'Migration20261123174000_ccm19_clients_domains';

  override up(): void | Promise<void> {
    this.addSql(`alter table "client"
      add column "password_hash" text null,
      add column "domain_max_count" int not null default 0,
      add column "whitelabel_max_count" int not null default 0,
      add column "widget_display_max_count" int not null default 0,
      add column "auto_create_domains" boolean not null default false,
      add column "features" jsonb not null default '{}';`);
    this.addSql(`alter table "domain"
      add column "whitelabel" boolean not null default false,
      add column "consent_cookie_lifetime" int not null default 365,
      add column "consent_cookie_secure" boolean not null default true,
      add column "consent_reset_before_date" text null,
      add column "consent_reset_on_legal_change" boolean not null default false,
      add column "consent_sharing_domains" jsonb not null default '[]',
      add column "consent_sharing_cross_domain" boolean not null default false,
      add column "frontend_widget_enabled" boolean not null default true,
      add column "frontend_widget_cache" boolean not null default true,
      add column "frontend_widget_minify_code" boolean not null default true,
      add column "management_structure" text not null default 'embedding',
      add column "delete_unknown_cookies" boolean not null default false,
      add column "delete_unknown_cookies_force_reload" boolean not null default false,
      add column "require_consent_for_mandatory_embeddings" boolean not null default false,
      add column "decline_button_enforced" boolean not null default true,
      add column "allowed_script_markers" jsonb not null default '[]',
      add column "blocked_script_markers" jsonb not null default '[]',
      add column "eval_inline_scripts" boolean not null default false,
      add column "record_scripts_on_website" boolean not null default true,
      add column "block_new_scripts" boolean not null default true,
      add column "block_first_party_scripts" boolean not null default false,
      add column "block_inline_scripts" boolean not null default false,
      add column "permanent_scan_enabled" boolean not null default false,
      add column "tcf_enabled" boolean not null default false,
      add column "tcf_enable_new_vendors_after_gvl_update" boolean not null default false,
      add column "tcf_vendor_blacklist" jsonb not null default '[]',
      add column "tcf_special_features" jsonb not null default '[]',
      add column "tcf_google_additional_consent_mode" boolean not null default false,
      add column "tcf_google_additional_consent_ad_providers" jsonb not null default '[]',
      add column "tcf_url_macro_auto_append" boolean not null default false,
      add column "tcf_url_macro_handling" boolean not null default false,
      add column "block_iframes" boolean not null default true,
      add column "remember_iframe_consent_per_domain" boolean not null default false,
      add column "append_consent_switch_to_iframes" boolean not null default false,
      add column "iframe_block_mode" text not null default 'whitelist',
      add column "iframe_markers" jsonb not null default '[]',
      add column "cookie_declaration_table_heading_start_level" int not null default 3,
      add column "cookie_declaration_table_prepend_consent_change_link" boolean not null default true,
      add column "cookie_declaration_table_prepend_intro_text" boolean not null default true,
      add column "imprint_display_mode" text not null default 'link',
      add column "imprint_open_in_new_tab" boolean not null default false,
      add column "imprint_show_widget" boolean not null default false,
      add column "privacy_policy_display_mode" text not null default 'link',
      add column "privacy_policy_open_in_new_tab" boolean not null default false,
      add column "privacy_policy_show_widget" boolean not null default false,
      add column "accessibility_display_mode" text not null default 'link',
      add column "accessibility_link_enabled" boolean not null default false;`);
    this.addSql(`alter table "domain" add constraint "domain_management_structure_check" check ("management_structure" in ('cookie', 'embedding'));`);
    this.addSql(`alter table "domain" add constraint "domain_iframe_block_mode_check" check ("iframe_block_mode" in ('blacklist', 'whitelist'));`);
    this.addSql(`alter table "domain" add constraint "domain_imprint_display_mode_check" check ("imprint_display_mode" in ('direct', 'link'));`);
    this.addSql(`alter table "domain" add constraint "domain_privacy_policy_display_mode_check" check ("privacy_policy_display_mode" in ('direct', 'link'));`);
    this.addSql(`alter table "domain" add constraint "domain_accessibility_display_mode_check" check ("accessibility_display_mode" in ('direct', 'link'));`);

    // The defaults above only fill the rows that exist; new rows get their values from the service.
    this.addSql(`alter table "client" alter column "features" drop default;`);
    for (const column of [
      'consent_sharing_domains',
      'allowed_script_markers',
      'blocked_script_markers',
      'tcf_vendor_blacklist',
      'tcf_special_features',
      'tcf_google_additional_consent_ad_providers',
      'iframe_markers',
    ]) {
      this.addSql(`alter table "domain" alter column "${column}" drop default;`);
    }
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "client"
      drop column "password_hash",
      drop column "domain_max_count",
      drop column "whitelabel_max_count",
      drop column "widget_display_max_count",
      drop column "auto_create_domains",
      drop column "features";`);
    this.addSql(`alter table "domain"
      drop column "whitelabel",
      drop column "consent_cookie_lifetime",
      drop column "consent_cookie_secure",
      drop column "consent_reset_before_date",
      drop column "consent_reset_on_legal_change",
      drop column "consent_sharing_domains",
      drop column "consent_sharing_cross_domain",
      drop column "frontend_widget_enabled",
      drop column "frontend_widget_cache",
      drop column "frontend_widget_minify_code",
      drop column "management_structure",
      drop column "delete_unknown_cookies",
      drop column "delete_unknown_cookies_force_reload",
      drop column "require_consent_for_mandatory_embeddings",
      drop column "decline_button_enforced",
      drop column "allowed_script_markers",
      drop column "blocked_script_markers",
      drop column "eval_inline_scripts",
      drop column "record_scripts_on_website",
      drop column "block_new_scripts",
      drop column "block_first_party_scripts",
      drop column "block_inline_scripts",
      drop column "permanent_scan_enabled",
      drop column "tcf_enabled",
      drop column "tcf_enable_new_vendors_after_gvl_update",
      drop column "tcf_vendor_blacklist",
      drop column "tcf_special_features",
      drop column "tcf_google_additional_consent_mode",
      drop column "tcf_google_additional_consent_ad_providers",
      drop column "tcf_url_macro_auto_append",
      drop column "tcf_url_macro_handling",
      drop column "block_iframes",
      drop column "remember_iframe_consent_per_domain",
      drop column "append_consent_switch_to_iframes",
      drop column "iframe_block_mode",
      drop column "iframe_markers",
      drop column "cookie_declaration_table_heading_start_level",
      drop column "cookie_declaration_table_prepend_consent_change_link",
      drop column "cookie_declaration_table_prepend_intro_text",
      drop column "imprint_display_mode",
      drop column "imprint_open_in_new_tab",
      drop column "imprint_show_widget",
      drop column "privacy_policy_display_mode",
      drop column "privacy_policy_open_in_new_tab",
      drop column "privacy_policy_show_widget",
      drop column "accessibility_display_mode",
      drop column "accessibility_link_enabled";`);
  }
}
