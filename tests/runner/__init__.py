"""Tests of hookrun.runner (a package so that module names like api_test do not collide)."""
