#!/bin/sh
# The nightly backup (docs/operations.md, Backups): a custom-format pg_dump
# of the shop's database into BACKUP_DIR, dumps older than BACKUP_KEEP_DAYS
# deleted, and, once the dump is complete, the time of this success written
# where node_exporter's textfile collector reads it, so that Prometheus can
# alert when the last good backup is older than 26 hours (ChillPBBackupOld,
# decision 080). A failed dump leaves the previous success's time as it was.
#
#   PGHOST=127.0.0.1 PGUSER=chillpb PGDATABASE=chillpb scripts/backup.sh
#
# BACKUP_DIR        where the dumps go (/var/backups/chillpb)
# BACKUP_KEEP_DAYS  how long a dump is kept (14)
# TEXTFILE_DIR      node_exporter's --collector.textfile.directory
#                   (/var/lib/prometheus/node-exporter); empty: none written
# The connection is libpq's: PGHOST, PGPORT, PGUSER, PGDATABASE, and the
# password from ~/.pgpass (or PGPASSFILE); -w never waits for a prompt.
set -eu

dir=${BACKUP_DIR:-/var/backups/chillpb}
keep=${BACKUP_KEEP_DAYS:-14}
textfile_dir=${TEXTFILE_DIR-/var/lib/prometheus/node-exporter}
database=${PGDATABASE:-chillpb}

mkdir -p "$dir"
file="$dir/$database-$(date +%F).dump"
# Written beside its name, then renamed: a dump cut short never takes the name of a good one.
if ! pg_dump -w -Fc -f "$file.partial" "$database"; then
  rm -f "$file.partial"
  echo "The backup of $database failed (pg_dump's message above); the last good one's time is left as it was." >&2
  exit 1
fi
mv "$file.partial" "$file"
find "$dir" -name "$database-*.dump" -mtime "+$keep" -delete
bytes=$(wc -c < "$file" | tr -d ' ')

if [ -n "$textfile_dir" ]; then
  # The textfile collector reads *.prom files: write another name, then rename, so it never reads half a file.
  metrics="$textfile_dir/chillpb_backup.prom"
  {
    echo "# HELP chillpb_backup_last_success_timestamp_seconds When scripts/backup.sh last wrote a complete dump."
    echo "# TYPE chillpb_backup_last_success_timestamp_seconds gauge"
    echo "chillpb_backup_last_success_timestamp_seconds $(date +%s)"
    echo "# HELP chillpb_backup_last_size_bytes The size of that dump."
    echo "# TYPE chillpb_backup_last_size_bytes gauge"
    echo "chillpb_backup_last_size_bytes $bytes"
  } > "$metrics.$$"
  mv "$metrics.$$" "$metrics"
fi
echo "Backed up $database to $file ($bytes bytes)."
