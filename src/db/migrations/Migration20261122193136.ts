import { Migration } from '@mikro-orm/migrations';

/** The first schema: clients, domains and everything a domain holds. */
export class Migration20261122193136 extends Migration {

  override name = 'Migration20261122193136';

  override up(): void | Promise<void> {
    this.addSql(`create table "client" ("id" uuid not null, "username" text not null, "email_address" text not null, "first_name" text not null, "last_name" text not null, "company" text not null, "active" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "client" add constraint "client_username_unique" unique ("username");`);

    this.addSql(`create table "domain" ("id" uuid not null, "client_id" uuid not null, "scheme" text not null, "host" text not null, "port" int null, "path" text not null, "country" text null, "locales" jsonb not null, "consent_storage" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "domain_client_id_index" on "domain" ("client_id");`);
    this.addSql(`alter table "domain" add constraint "domain_scheme_check" check ("scheme" in ('http', 'https'));`);
    this.addSql(`alter table "domain" add constraint "domain_consent_storage_check" check ("consent_storage" in ('cookie', 'localStorage', 'sessionStorage'));`);

    this.addSql(`create table "embedding" ("id" uuid not null, "domain_id" uuid not null, "name" text not null, "active" boolean not null, "purpose" text not null, "vendor" text not null, "script_html_code" text not null, "script_loader_group" text not null, "script_markers" jsonb not null, "iframe_markers" jsonb not null, "hide_iframes_until_consent" boolean not null, "exclude_urls_mode" text not null, "exclude_from_urls" jsonb not null, "description" text not null, "privacy_policy_url" text not null, "what_data_is_collected" text not null, "purpose_of_data_collection" text not null, "legal_basis" text not null, "place_of_processing" text not null, "translations" jsonb not null, "tcf_vendor" int null, "tcf_purposes" jsonb not null, "tcf_special_features" jsonb not null, "google_consent_mode" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "embedding_domain_id_index" on "embedding" ("domain_id");`);

    this.addSql(`create table "embedding_asset" ("id" uuid not null, "embedding_id" uuid not null, "position" int not null, "name" text not null, "dynamic" boolean not null, "storage_type" text not null, "lifetime" text not null, "description" text not null, "translations" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "embedding_asset_embedding_id_index" on "embedding_asset" ("embedding_id");`);

    this.addSql(`create table "placeholder" ("id" uuid not null, "domain_id" uuid not null, "name" text not null, "value" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "placeholder" add constraint "placeholder_domain_id_name_unique" unique ("domain_id", "name");`);

    this.addSql(`create table "theme" ("id" uuid not null, "domain_id" uuid not null, "name" text not null, "is_default" boolean not null, "widget_blocking" boolean not null, "widget_close_button" boolean not null, "show_purposes_in_main_window" boolean not null, "settings_accept_all_button" boolean not null, "settings_check_and_uncheck_all_buttons" boolean not null, "settings_footer" boolean not null, "comply_with_do_not_track" boolean not null, "enable_only_in_eu" boolean not null, "manipulation_prevention" boolean not null, "logo_enabled" boolean not null, "settings_icon_enabled" boolean not null, "whitelabel" boolean not null, "widget_buttons" jsonb not null, "widget_position" text not null, "widget_switch_type" text not null, "settings_icon_target" text not null, "logo_image" text null, "settings_icon_image" text null, "custom_css" text not null, "custom_css_for_iframe_blocker" text not null, "primary_button_background_color" text not null, "primary_button_foreground_color" text not null, "primary_button_border_color" text not null, "decline_button_background_color" text not null, "decline_button_foreground_color" text not null, "decline_button_border_color" text not null, "button_background_color" text not null, "button_foreground_color" text not null, "button_border_color" text not null, "window_background_color" text not null, "window_foreground_color" text not null, "window_link_color" text not null, "window_border_color" text not null, "iframe_blocker_background_color" text not null, "iframe_blocker_foreground_color" text not null, "iframe_blocker_button_background_color" text not null, "iframe_blocker_button_foreground_color" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "theme_domain_id_index" on "theme" ("domain_id");`);
    this.addSql(`create unique index "theme_one_default_per_domain" on "theme" ("domain_id") where "is_default";`);
    this.addSql(`alter table "theme" add constraint "theme_widget_position_check" check ("widget_position" in ('top', 'center', 'bottom', 'bottomleft', 'bottomright'));`);
    this.addSql(`alter table "theme" add constraint "theme_settings_icon_target_check" check ("settings_icon_target" in ('main', 'purpose'));`);

    this.addSql(`alter table "domain" add constraint "domain_client_id_foreign" foreign key ("client_id") references "client" ("id") on delete cascade;`);

    this.addSql(`alter table "embedding" add constraint "embedding_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`);

    this.addSql(`alter table "embedding_asset" add constraint "embedding_asset_embedding_id_foreign" foreign key ("embedding_id") references "embedding" ("id") on delete cascade;`);

    this.addSql(`alter table "placeholder" add constraint "placeholder_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`);

    this.addSql(`alter table "theme" add constraint "theme_domain_id_foreign" foreign key ("domain_id") references "domain" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    for (const table of ['embedding_asset', 'embedding', 'placeholder', 'theme', 'domain', 'client']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
