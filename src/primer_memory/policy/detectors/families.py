"""The detectors grouped by what they look for: nine families a reader can hold in mind instead of 115 names.

Each detector of the registry (`policy.rules.DETECTORS`) belongs to exactly one family; a test keeps the two
lists in step, so a new detector cannot be added without saying which family it joins.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FAMILIES", "Family", "family_of"]


@dataclass(frozen=True)
class Family:
    """One kind of thing the policy refuses, how its detectors decide, and which detectors they are."""

    name: str
    looks_for: str
    decides_by: str
    detectors: tuple[str, ...]


FAMILIES: tuple[Family, ...] = (
    Family("vendor keys and tokens", "API keys and access tokens of named services (AWS, GitHub, Slack, Stripe, ...)",
           "the vendor's published shape: prefix, length and alphabet (a JWT must decode to JSON)",
           ("aws_access_key_id", "github_token", "gitlab_token", "slack_token", "stripe_key", "google_api_key",
            "sk_api_key", "package_registry_token", "huggingface_token", "sendgrid_key", "jwt", "twilio_key",
            "discord_webhook", "digitalocean_token", "databricks_token", "gcp_service_account", "azure_storage_key",
            "azure_sas", "discord_token", "telegram_token", "mailgun_key", "vendor_token", "marked_key",
            "labelled_secret")),
    Family("key material", "private keys, key files, password hashes and recovery keys",
           "BEGIN/END blocks, key-file and wallet formats, encoded key bytes",
           ("private_key_block", "encoded_private_key", "byte_array_key", "password_hash", "wireguard_private_key",
            "wallet_private_key", "private_key_file", "age_secret_key", "bitlocker_key")),
    Family("credentials in URLs and config", "a secret inside a URL, a connection string, a command line or a "
           "config line", "where it sits: user:password@host, key=value, --password, a cookie or a table cell",
           ("url_credentials", "dsn_credentials", "webhook_url", "signed_url", "otpauth_secret", "cli_password",
            "credential_file_line", "password_assignment", "secret_assignment", "session_cookie", "table_secret")),
    Family("passwords and codes in words", "a password, PIN, door or one-time code said in a sentence",
           "a credential word (in about thirty languages) with a value next to it, or a value alone that looks "
           "typed rather than written",
           ("password_phrase", "password_nearby", "code_nearby", "wifi_key", "security_answer", "entry_code",
            "recovery_secret", "password_followup", "login_pair", "one_time_code", "account_password",
            "passphrase_words", "encoded_password", "lone_token", "loose_credential")),
    Family("payment and bank numbers", "card numbers, IBANs and bank account numbers",
           "check digits where the format has them (Luhn for cards, mod-97 for IBANs), bank and branch codes",
           ("iban", "card_number", "bank_account", "uk_sort_code_account", "au_bsb_account",
            "catalogue_bank_account")),
    Family("national identity numbers", "social security, tax and identity-card numbers of 39 countries",
           "each country's format and check digit or letter (Verhoeff for Aadhaar, the DNI's letter, mod-11, ...)",
           ("us_ssn", "es_dni", "it_codice_fiscale", "in_aadhaar", "br_cpf", "ca_sin", "fr_insee", "uk_nino",
            "nl_bsn", "be_national_number", "de_steuer_id", "se_personnummer", "no_fodselsnummer", "dk_cpr",
            "fi_hetu", "pl_pesel", "pt_nif", "ch_ahv", "ie_ppsn", "ro_cnp", "gr_amka", "ru_snils", "ru_inn",
            "ua_rnokpp", "cz_rodne_cislo", "cn_resident_id", "in_pan", "kr_rrn", "jp_my_number", "mx_curp",
            "ar_cuit", "za_id", "au_tfn", "au_medicare", "tr_kimlik", "il_teudat_zehut", "cl_rut", "ae_emirates_id",
            "id_nik", "th_national_id", "hu_taj_or_tax_id", "sg_nric", "catalogue_tax_id",
            "catalogue_personal_id")),
    Family("documents and health ids", "passport, licence and document numbers, insurance member ids",
           "the document's own format (an MRZ line with its check digits) next to a label that names it",
           ("passport_number", "mrz", "document_number", "driving_licence", "medicare_mbi", "insurance_member_id",
            "gb_nhs_number", "ca_health_number", "catalogue_health_id")),
    Family("digits read aloud", "a number dictated one digit at a time, as in a call transcript",
           "runs of spoken digit words or separated digits, read back into a number and checked as one",
           ("spoken_digits", "dictated_digits")),
    Family("instructions aimed at the model", "memory poisoning: an order for the model, or text hidden from the "
           "reader", "text that addresses the model, rewrites its rules or fakes a turn; invisible or "
           "direction-changing characters", ("prompt_injection", "hidden_text")),
)

_BY_NAME = {detector: family for family in FAMILIES for detector in family.detectors}


def family_of(detector: str) -> Family:
    """The family a detector belongs to (KeyError naming the detector if it has none)."""
    try:
        return _BY_NAME[detector]
    except KeyError:
        raise KeyError(f"detector {detector!r} belongs to no family; add it to one in policy/detectors/families.py")\
            from None
