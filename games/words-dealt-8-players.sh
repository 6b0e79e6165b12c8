#!/bin/sh
# The commands that played games/words-dealt-8-players.yaml, a game of log format 4 dealt
# from the players' words, with renames, replacements, a removal, vetoes and a lapse of
# every kind; docs/verify.md recomputes three of its values by hand. Run it in an empty
# folder (`sh words-dealt-8-players.sh`; its seed is published, hence `--guessable`),
# then `shmod publish`: the published log is the shipped one but for what `shmod new`
# draws afresh (the salt, the key pair, and so the commitment, every checkpoint and every
# hash). tests/test_words_example.py plays it under format 4 (today's `shmod new` writes
# format 5, which deals otherwise: docs/verify.md section 2). The game was played before
# the outbox (issue 40), when every step printed its PMs at once: what it printed counts as
# sent before each lapse (`shmod outbox --settle`), and the log this shmod writes holds those
# deliveries and the opening post's `outbox: true` besides the shipped log's entries.
set -e
export SHMOD_GAME=games/winter.yaml
SHMOD_NOW=2026-12-04T18:07:00Z shmod new Ada Bruno Chiara Dmitri Eun-ji Farouk Greta Hollis --deal players --seed 580b4f279b2de3d3238d4a28601693f1 --guessable --title Winter --zone Europe/Berlin --forum phpbb -V late_vote=nein -V late_nomination=fail -V late_choice=random
SHMOD_NOW=2026-12-04T18:08:00Z shmod post
SHMOD_NOW=2026-12-04T18:15:00Z shmod backup Ines Jonas
SHMOD_NOW=2026-12-04T18:22:00Z shmod word Ada 'Crème brûlée!'
SHMOD_NOW=2026-12-04T18:29:00Z shmod rename Bruno Bruna
SHMOD_NOW=2026-12-04T18:36:00Z shmod word Bruna 'Straße'
SHMOD_NOW=2026-12-04T18:43:00Z shmod word Chiara 'out, damned spot'
SHMOD_NOW=2026-12-04T18:50:00Z shmod replace Dmitri
SHMOD_NOW=2026-12-04T18:57:00Z shmod word Ines 'Łódź'
SHMOD_NOW=2026-12-04T19:04:00Z shmod word Eun-ji 'þorn'
SHMOD_NOW=2026-12-04T19:11:00Z shmod word Farouk 42
SHMOD_NOW=2026-12-04T19:18:00Z shmod word Greta 'rock'"'"'n'"'"'roll'
SHMOD_NOW=2026-12-04T19:19:00Z shmod post
SHMOD_NOW=2026-12-04T19:26:00Z shmod word Hollis 'Ça va?'
SHMOD_NOW=2026-12-04T19:27:00Z shmod post
SHMOD_NOW=2026-12-04T19:30:00Z shmod deadline 24h
SHMOD_NOW=2026-12-04T19:31:00Z shmod post
SHMOD_NOW=2026-12-05T20:38:00Z shmod outbox --settle
SHMOD_NOW=2026-12-05T20:38:00Z shmod lapse
SHMOD_NOW=2026-12-05T20:39:00Z shmod post
SHMOD_NOW=2026-12-05T20:46:00Z shmod nominate Chiara
SHMOD_NOW=2026-12-05T20:47:00Z shmod post
SHMOD_NOW=2026-12-05T20:54:00Z shmod vote Ada ja Chiara ja Ines ja Eun-ji ja Farouk ja
SHMOD_NOW=2026-12-05T20:57:00Z shmod deadline 24h
SHMOD_NOW=2026-12-05T20:58:00Z shmod post
SHMOD_NOW=2026-12-06T22:05:00Z shmod outbox --settle
SHMOD_NOW=2026-12-06T22:05:00Z shmod lapse
SHMOD_NOW=2026-12-06T22:06:00Z shmod post
SHMOD_NOW=2026-12-06T22:09:00Z shmod deadline 24h
SHMOD_NOW=2026-12-06T22:10:00Z shmod post
SHMOD_NOW=2026-12-07T23:17:00Z shmod outbox --settle
SHMOD_NOW=2026-12-07T23:17:00Z shmod lapse
SHMOD_NOW=2026-12-07T23:18:00Z shmod post
SHMOD_NOW=2026-12-07T23:21:00Z shmod deadline 24h
SHMOD_NOW=2026-12-07T23:22:00Z shmod post
SHMOD_NOW=2026-12-09T00:29:00Z shmod outbox --settle
SHMOD_NOW=2026-12-09T00:29:00Z shmod lapse
SHMOD_NOW=2026-12-09T00:30:00Z shmod post
SHMOD_NOW=2026-12-09T00:37:00Z shmod rename Eun-ji Eunji
SHMOD_NOW=2026-12-09T00:44:00Z shmod nominate Farouk
SHMOD_NOW=2026-12-09T00:45:00Z shmod post
SHMOD_NOW=2026-12-09T00:52:00Z shmod vote Ada ja Bruna ja Chiara ja Ines ja Eunji ja Farouk ja Greta ja Hollis ja
SHMOD_NOW=2026-12-09T00:53:00Z shmod post
SHMOD_NOW=2026-12-09T01:00:00Z shmod discard liberal
SHMOD_NOW=2026-12-09T01:07:00Z shmod enact fascist
SHMOD_NOW=2026-12-09T01:08:00Z shmod post
SHMOD_NOW=2026-12-09T01:11:00Z shmod deadline 24h
SHMOD_NOW=2026-12-09T01:12:00Z shmod post
SHMOD_NOW=2026-12-10T02:19:00Z shmod outbox --settle
SHMOD_NOW=2026-12-10T02:19:00Z shmod lapse
SHMOD_NOW=2026-12-10T02:20:00Z shmod post
SHMOD_NOW=2026-12-10T02:27:00Z shmod replace Farouk
SHMOD_NOW=2026-12-10T02:28:00Z shmod post
SHMOD_NOW=2026-12-10T02:35:00Z shmod nominate Eunji
SHMOD_NOW=2026-12-10T02:36:00Z shmod post
SHMOD_NOW=2026-12-10T02:43:00Z shmod vote Ada ja Bruna ja Chiara ja Ines ja Eunji ja Jonas ja Greta ja Hollis ja
SHMOD_NOW=2026-12-10T02:44:00Z shmod post
SHMOD_NOW=2026-12-10T02:51:00Z shmod discard liberal
SHMOD_NOW=2026-12-10T02:58:00Z shmod enact fascist
SHMOD_NOW=2026-12-10T02:59:00Z shmod post
SHMOD_NOW=2026-12-10T03:02:00Z shmod deadline 24h
SHMOD_NOW=2026-12-10T03:03:00Z shmod post
SHMOD_NOW=2026-12-11T04:10:00Z shmod outbox --settle
SHMOD_NOW=2026-12-11T04:10:00Z shmod lapse
SHMOD_NOW=2026-12-11T04:11:00Z shmod post
SHMOD_NOW=2026-12-11T04:18:00Z shmod nominate Ada
SHMOD_NOW=2026-12-11T04:19:00Z shmod post
SHMOD_NOW=2026-12-11T04:26:00Z shmod vote Ada ja Bruna ja Chiara ja Ines ja Eunji ja Jonas ja Greta ja Hollis ja
SHMOD_NOW=2026-12-11T04:27:00Z shmod post
SHMOD_NOW=2026-12-11T04:34:00Z shmod discard liberal
SHMOD_NOW=2026-12-11T04:41:00Z shmod enact fascist
SHMOD_NOW=2026-12-11T04:42:00Z shmod post
SHMOD_NOW=2026-12-11T04:45:00Z shmod deadline 24h
SHMOD_NOW=2026-12-11T04:46:00Z shmod post
SHMOD_NOW=2026-12-12T05:53:00Z shmod outbox --settle
SHMOD_NOW=2026-12-12T05:53:00Z shmod lapse
SHMOD_NOW=2026-12-12T05:54:00Z shmod post
SHMOD_NOW=2026-12-12T06:01:00Z shmod remove Hollis --reason 'left the forum for the holidays'
SHMOD_NOW=2026-12-12T06:02:00Z shmod post
SHMOD_NOW=2026-12-12T06:09:00Z shmod nominate Chiara
SHMOD_NOW=2026-12-12T06:10:00Z shmod post
SHMOD_NOW=2026-12-12T06:17:00Z shmod vote Ada ja Bruna ja Chiara ja Ines ja Eunji ja Jonas ja
SHMOD_NOW=2026-12-12T06:18:00Z shmod post
SHMOD_NOW=2026-12-12T06:25:00Z shmod discard liberal
SHMOD_NOW=2026-12-12T06:32:00Z shmod enact fascist
SHMOD_NOW=2026-12-12T06:33:00Z shmod post
SHMOD_NOW=2026-12-12T06:40:00Z shmod execute Bruna
SHMOD_NOW=2026-12-12T06:41:00Z shmod post
SHMOD_NOW=2026-12-12T06:48:00Z shmod nominate Jonas
SHMOD_NOW=2026-12-12T06:49:00Z shmod post
SHMOD_NOW=2026-12-12T06:56:00Z shmod vote Ada ja Chiara ja Ines ja Eunji ja Jonas ja
SHMOD_NOW=2026-12-12T06:57:00Z shmod post
SHMOD_NOW=2026-12-12T07:04:00Z shmod discard liberal
SHMOD_NOW=2026-12-12T07:11:00Z shmod veto propose
SHMOD_NOW=2026-12-12T07:12:00Z shmod post
SHMOD_NOW=2026-12-12T07:19:00Z shmod veto accept
SHMOD_NOW=2026-12-12T07:20:00Z shmod post
SHMOD_NOW=2026-12-12T07:27:00Z shmod nominate Ada
SHMOD_NOW=2026-12-12T07:28:00Z shmod post
SHMOD_NOW=2026-12-12T07:35:00Z shmod vote Ada ja Chiara ja Ines ja Eunji ja Jonas ja
SHMOD_NOW=2026-12-12T07:36:00Z shmod post
SHMOD_NOW=2026-12-12T07:43:00Z shmod discard liberal
SHMOD_NOW=2026-12-12T07:50:00Z shmod veto propose
SHMOD_NOW=2026-12-12T07:51:00Z shmod post
SHMOD_NOW=2026-12-12T07:54:00Z shmod deadline 24h
SHMOD_NOW=2026-12-12T07:55:00Z shmod post
SHMOD_NOW=2026-12-13T09:02:00Z shmod outbox --settle
SHMOD_NOW=2026-12-13T09:02:00Z shmod lapse
SHMOD_NOW=2026-12-13T09:03:00Z shmod post
SHMOD_NOW=2026-12-13T09:06:00Z shmod deadline 24h
SHMOD_NOW=2026-12-13T09:07:00Z shmod post
SHMOD_NOW=2026-12-14T10:14:00Z shmod outbox --settle
SHMOD_NOW=2026-12-14T10:14:00Z shmod lapse
SHMOD_NOW=2026-12-14T10:15:00Z shmod post
SHMOD_NOW=2026-12-14T10:22:00Z shmod nominate Ines
SHMOD_NOW=2026-12-14T10:23:00Z shmod post
SHMOD_NOW=2026-12-14T10:30:00Z shmod vote Ada ja Chiara ja Ines ja Eunji nein Jonas nein
SHMOD_NOW=2026-12-14T10:31:00Z shmod post
SHMOD_NOW=2026-12-14T10:38:00Z shmod reveal
